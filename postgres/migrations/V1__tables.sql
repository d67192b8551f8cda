-- Schema version 1: the counts (captured uses per code, and per code and customer), every
-- reservation in order as JSON, the holds not yet captured or released (`expires`: a time as
-- fixed-width text that sorts as the time does, `Timestamp::sortable`), and the
-- idempotency keys (primary key per code: their uniqueness is the database's).

CREATE TABLE promocodes_usage_total(
    code text PRIMARY KEY,
    n bigint NOT NULL CHECK (n >= 0));
CREATE TABLE promocodes_usage_customer(
    code text NOT NULL,
    customer text NOT NULL,
    n bigint NOT NULL CHECK (n >= 0),
    PRIMARY KEY (code, customer));
CREATE TABLE promocodes_redemptions(
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code text NOT NULL,
    idempotency_key text,
    state text NOT NULL,
    reservation jsonb NOT NULL);
CREATE INDEX promocodes_redemptions_by_code ON promocodes_redemptions(code, seq);
CREATE TABLE promocodes_holds(
    seq bigint PRIMARY KEY REFERENCES promocodes_redemptions(seq),
    code text NOT NULL,
    customer text,
    expires text COLLATE "C" NOT NULL);
CREATE INDEX promocodes_holds_by_expiry ON promocodes_holds(code, expires);
CREATE TABLE promocodes_idempotency_keys(
    code text NOT NULL,
    key text NOT NULL,
    seq bigint NOT NULL REFERENCES promocodes_redemptions(seq),
    PRIMARY KEY (code, key));
