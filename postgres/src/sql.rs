//! The SQL of the store: the versioned migrations (tables, and `promocodes_record`,
//! the compare-and-set of a new use as earlier versions sent it) and the statements
//! the store sends (the compare-and-set of a new use is [`RECORD`]).

/// The compare-and-set of a new use (schema version 3), as one function, so
/// that it is one statement from the client (one round trip, its own
/// transaction) and yet reads twice: PL/pgSQL takes a fresh snapshot for
/// each statement it runs at `READ COMMITTED`.
///
/// 1. Without any lock: a known key answers `replay` with its reservation
///    (but a capture that names, in `p_after_expired`, the hold under the
///    key, expired at `p_now`: [`Redemption::follows_expired_hold`], in
///    SQL), and counts at `p_now` other than `p_total`, `p_mine`,
///    `p_discounted` answer `stale`. Both are true at that snapshot, within
///    the call: a write that has lost its race costs no lock and no disk
///    flush.
/// 2. Otherwise it takes the code's write lock ([`LOCK`]) and looks again,
///    under a snapshot that sees every write of the code before it: the
///    same two answers, or the write.
/// 3. The write: the reservation (its JSON, with the counts after it, made
///    by the caller, since it can only land on exactly the counts
///    compared), its key, and the hold (`p_expires`, reserving
///    `p_discount`) or the captured counts (`p_discount` added to the
///    code's sum). A capture that follows an expired hold takes its key;
///    the hold stays in the history, marked `expired`.
///
/// [`Redemption::follows_expired_hold`]: promocodes::Redemption::follows_expired_hold
macro_rules! record_function {
    () => {
        r#"
CREATE OR REPLACE FUNCTION promocodes_record(
    p_code text, p_customer text, p_now text, p_key text, p_state text, p_expires text,
    p_total bigint, p_mine bigint, p_reservation jsonb, p_after_expired text,
    p_discounted numeric, p_discount numeric)
RETURNS TABLE(what text, earlier jsonb)
LANGUAGE plpgsql VOLATILE
SET search_path FROM CURRENT
AS $fn$
DECLARE
    k_seq bigint;
    k_reservation jsonb;
    k_follows boolean;
    c_total bigint;
    c_mine bigint;
    c_discounted numeric;
    new_seq bigint;
BEGIN
    -- The look after the lock must see what was committed before it: one snapshot per statement.
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'promocodes_record runs at READ COMMITTED, not %', current_setting('transaction_isolation');
    END IF;
    FOR pass IN 1..2 LOOP
        IF pass = 2 THEN
            PERFORM pg_advisory_xact_lock(1885564772, hashtext(p_code));
        END IF;
        k_seq := NULL;
        IF p_key IS NOT NULL THEN
            -- k_follows: this capture names the hold under the key, and it has expired at p_now.
            SELECT k.seq, r.reservation,
                (p_expires IS NULL AND r.state = 'held' AND h.expires <= p_now AND h.expires = p_after_expired)
            INTO k_seq, k_reservation, k_follows
            FROM promocodes_idempotency_keys k
            JOIN promocodes_redemptions r ON r.seq = k.seq
            LEFT JOIN promocodes_holds h ON h.seq = k.seq
            WHERE k.code = p_code AND k.key = p_key;
        END IF;
        IF k_seq IS NOT NULL AND k_follows IS NOT TRUE THEN
            RETURN QUERY SELECT 'replay'::text, k_reservation;
            RETURN;
        END IF;
        SELECT COALESCE((SELECT n FROM promocodes_usage_total WHERE code = p_code), 0)
                + (SELECT count(*) FROM promocodes_holds WHERE code = p_code AND expires > p_now),
            CASE WHEN p_customer IS NULL THEN 0 ELSE
                COALESCE((SELECT n FROM promocodes_usage_customer WHERE code = p_code AND customer = p_customer), 0)
                + (SELECT count(*) FROM promocodes_holds
                   WHERE code = p_code AND expires > p_now AND customer = p_customer)
            END,
            COALESCE((SELECT discounted FROM promocodes_usage_total WHERE code = p_code), 0)
                + COALESCE((SELECT sum(discount) FROM promocodes_holds WHERE code = p_code AND expires > p_now), 0)
        INTO c_total, c_mine, c_discounted;
        IF c_total <> p_total OR c_mine <> p_mine OR c_discounted <> p_discounted THEN
            RETURN QUERY SELECT 'stale'::text, NULL::jsonb;
            RETURN;
        END IF;
    END LOOP;

    IF k_seq IS NOT NULL THEN
        -- The expired hold stays in the history, marked expired; the key moves to the capture.
        UPDATE promocodes_redemptions
        SET state = 'expired', reservation = jsonb_set(reservation, '{state}', '"expired"')
        WHERE seq = k_seq;
        DELETE FROM promocodes_holds WHERE seq = k_seq;
        DELETE FROM promocodes_idempotency_keys WHERE code = p_code AND key = p_key;
    END IF;
    INSERT INTO promocodes_redemptions(code, idempotency_key, state, reservation)
    VALUES (p_code, p_key, p_state, p_reservation)
    RETURNING seq INTO new_seq;
    IF p_key IS NOT NULL THEN
        INSERT INTO promocodes_idempotency_keys(code, key, seq) VALUES (p_code, p_key, new_seq);
    END IF;
    IF p_expires IS NOT NULL THEN
        INSERT INTO promocodes_holds(seq, code, customer, expires, discount)
        VALUES (new_seq, p_code, p_customer, p_expires, p_discount);
    END IF;
    IF p_expires IS NULL THEN
        INSERT INTO promocodes_usage_total(code, n, discounted) VALUES (p_code, 1, p_discount)
        ON CONFLICT (code) DO UPDATE
        SET n = promocodes_usage_total.n + 1, discounted = promocodes_usage_total.discounted + p_discount;
        IF p_customer IS NOT NULL THEN
            INSERT INTO promocodes_usage_customer(code, customer, n) VALUES (p_code, p_customer, 1)
            ON CONFLICT (code, customer) DO UPDATE SET n = promocodes_usage_customer.n + 1;
        END IF;
    END IF;
    RETURN QUERY SELECT 'written'::text, NULL::jsonb;
END
$fn$;
"#
    };
}

/// The compare-and-set of a new use as schema version 4 makes it: version
/// 3's, for a campaign's code (`p_campaign`) counting under the campaign
/// (`campaign:<id>` in the counts' `code` columns, behind its own lock,
/// taken after the code's) and comparing the code's own uses (`p_per_code`)
/// with the rest; a capture moves `promocodes_usage_code`, a hold notes the
/// code it came through.
macro_rules! record_function_v4 {
    () => {
        r#"
CREATE OR REPLACE FUNCTION promocodes_record(
    p_code text, p_customer text, p_now text, p_key text, p_state text, p_expires text,
    p_total bigint, p_mine bigint, p_reservation jsonb, p_after_expired text,
    p_discounted numeric, p_discount numeric, p_campaign text, p_per_code bigint)
RETURNS TABLE(what text, earlier jsonb)
LANGUAGE plpgsql VOLATILE
SET search_path FROM CURRENT
AS $fn$
DECLARE
    k_seq bigint;
    k_reservation jsonb;
    k_follows boolean;
    c_total bigint;
    c_mine bigint;
    c_discounted numeric;
    c_code bigint;
    counter text := COALESCE('campaign:' || p_campaign, p_code);
    new_seq bigint;
BEGIN
    -- The look after the lock must see what was committed before it: one snapshot per statement.
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'promocodes_record runs at READ COMMITTED, not %', current_setting('transaction_isolation');
    END IF;
    FOR pass IN 1..2 LOOP
        IF pass = 2 THEN
            PERFORM pg_advisory_xact_lock(1885564772, hashtext(p_code));
            IF p_campaign IS NOT NULL THEN
                -- A campaign's counts are shared by all of its codes: its own lock, after the code's.
                PERFORM pg_advisory_xact_lock(1885564772, hashtext(counter));
            END IF;
        END IF;
        k_seq := NULL;
        IF p_key IS NOT NULL THEN
            -- k_follows: this capture names the hold under the key, and it has expired at p_now.
            SELECT k.seq, r.reservation,
                (p_expires IS NULL AND r.state = 'held' AND h.expires <= p_now AND h.expires = p_after_expired)
            INTO k_seq, k_reservation, k_follows
            FROM promocodes_idempotency_keys k
            JOIN promocodes_redemptions r ON r.seq = k.seq
            LEFT JOIN promocodes_holds h ON h.seq = k.seq
            WHERE k.code = p_code AND k.key = p_key;
        END IF;
        IF k_seq IS NOT NULL AND k_follows IS NOT TRUE THEN
            RETURN QUERY SELECT 'replay'::text, k_reservation;
            RETURN;
        END IF;
        SELECT COALESCE((SELECT n FROM promocodes_usage_total WHERE code = counter), 0)
                + (SELECT count(*) FROM promocodes_holds WHERE code = counter AND expires > p_now),
            CASE WHEN p_customer IS NULL THEN 0 ELSE
                COALESCE((SELECT n FROM promocodes_usage_customer WHERE code = counter AND customer = p_customer), 0)
                + (SELECT count(*) FROM promocodes_holds
                   WHERE code = counter AND expires > p_now AND customer = p_customer)
            END,
            COALESCE((SELECT discounted FROM promocodes_usage_total WHERE code = counter), 0)
                + COALESCE((SELECT sum(discount) FROM promocodes_holds WHERE code = counter AND expires > p_now), 0)
        INTO c_total, c_mine, c_discounted;
        -- A campaign's code: its own uses too, compared with the rest.
        c_code := CASE WHEN p_campaign IS NULL THEN NULL ELSE
            COALESCE((SELECT n FROM promocodes_usage_code WHERE code = p_code), 0)
            + (SELECT count(*) FROM promocodes_holds WHERE code = counter AND through = p_code AND expires > p_now)
        END;
        IF c_total <> p_total OR c_mine <> p_mine OR c_discounted <> p_discounted
            OR c_code IS DISTINCT FROM p_per_code THEN
            RETURN QUERY SELECT 'stale'::text, NULL::jsonb;
            RETURN;
        END IF;
    END LOOP;

    IF k_seq IS NOT NULL THEN
        -- The expired hold stays in the history, marked expired; the key moves to the capture.
        UPDATE promocodes_redemptions
        SET state = 'expired', reservation = jsonb_set(reservation, '{state}', '"expired"')
        WHERE seq = k_seq;
        DELETE FROM promocodes_holds WHERE seq = k_seq;
        DELETE FROM promocodes_idempotency_keys WHERE code = p_code AND key = p_key;
    END IF;
    INSERT INTO promocodes_redemptions(code, idempotency_key, state, reservation, campaign)
    VALUES (p_code, p_key, p_state, p_reservation, p_campaign)
    RETURNING seq INTO new_seq;
    IF p_key IS NOT NULL THEN
        INSERT INTO promocodes_idempotency_keys(code, key, seq) VALUES (p_code, p_key, new_seq);
    END IF;
    IF p_expires IS NOT NULL THEN
        INSERT INTO promocodes_holds(seq, code, customer, expires, discount, through)
        VALUES (new_seq, counter, p_customer, p_expires, p_discount, CASE WHEN p_campaign IS NOT NULL THEN p_code END);
    END IF;
    IF p_expires IS NULL THEN
        INSERT INTO promocodes_usage_total(code, n, discounted) VALUES (counter, 1, p_discount)
        ON CONFLICT (code) DO UPDATE
        SET n = promocodes_usage_total.n + 1, discounted = promocodes_usage_total.discounted + p_discount;
        IF p_customer IS NOT NULL THEN
            INSERT INTO promocodes_usage_customer(code, customer, n) VALUES (counter, p_customer, 1)
            ON CONFLICT (code, customer) DO UPDATE SET n = promocodes_usage_customer.n + 1;
        END IF;
        IF p_campaign IS NOT NULL THEN
            INSERT INTO promocodes_usage_code(code, n) VALUES (p_code, 1)
            ON CONFLICT (code) DO UPDATE SET n = promocodes_usage_code.n + 1;
        END IF;
    END IF;
    RETURN QUERY SELECT 'written'::text, NULL::jsonb;
END
$fn$;
"#
    };
}

/// The compare-and-set of a new use as schema version 5 makes it: version
/// 4's, in fewer statements (each costs the server an executor's start and
/// end): the key and every count in one read, and the reservation, its key,
/// its hold or its counts in one write.
const RECORD_FUNCTION_V5: &str = r#"
CREATE OR REPLACE FUNCTION promocodes_record(
    p_code text, p_customer text, p_now text, p_key text, p_state text, p_expires text,
    p_total bigint, p_mine bigint, p_reservation jsonb, p_after_expired text,
    p_discounted numeric, p_discount numeric, p_campaign text, p_per_code bigint)
RETURNS TABLE(what text, earlier jsonb)
LANGUAGE plpgsql VOLATILE
SET search_path FROM CURRENT
AS $fn$
DECLARE
    k_seq bigint;
    k_reservation jsonb;
    k_follows boolean;
    c_total bigint;
    c_mine bigint;
    c_discounted numeric;
    c_code bigint;
    counter text := COALESCE('campaign:' || p_campaign, p_code);
BEGIN
    -- The look after the lock must see what was committed before it: one snapshot per statement.
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'promocodes_record runs at READ COMMITTED, not %', current_setting('transaction_isolation');
    END IF;
    FOR pass IN 1..2 LOOP
        IF pass = 2 THEN
            PERFORM pg_advisory_xact_lock(1885564772, hashtext(p_code));
            IF p_campaign IS NOT NULL THEN
                -- A campaign's counts are shared by all of its codes: its own lock, after the code's.
                PERFORM pg_advisory_xact_lock(1885564772, hashtext(counter));
            END IF;
        END IF;
        -- k_follows: this capture names the hold under the key, and it has expired at p_now.
        SELECT k.seq, r.reservation,
            (p_expires IS NULL AND r.state = 'held' AND h.expires <= p_now AND h.expires = p_after_expired),
            COALESCE(t.n, 0) + held.n,
            CASE WHEN p_customer IS NULL THEN 0 ELSE COALESCE(c.n, 0) + held.mine END,
            COALESCE(t.discounted, 0) + held.discounted,
            CASE WHEN p_campaign IS NULL THEN NULL ELSE COALESCE(u.n, 0) + held.through_code END
        INTO k_seq, k_reservation, k_follows, c_total, c_mine, c_discounted, c_code
        FROM (SELECT 1) AS one
        LEFT JOIN promocodes_idempotency_keys k ON p_key IS NOT NULL AND k.code = p_code AND k.key = p_key
        LEFT JOIN promocodes_redemptions r ON r.seq = k.seq
        LEFT JOIN promocodes_holds h ON h.seq = k.seq
        LEFT JOIN promocodes_usage_total t ON t.code = counter
        LEFT JOIN promocodes_usage_customer c ON p_customer IS NOT NULL AND c.code = counter AND c.customer = p_customer
        LEFT JOIN promocodes_usage_code u ON p_campaign IS NOT NULL AND u.code = p_code
        CROSS JOIN (
            SELECT count(*) AS n,
                count(*) FILTER (WHERE customer = p_customer) AS mine,
                COALESCE(sum(discount), 0) AS discounted,
                count(*) FILTER (WHERE through = p_code) AS through_code
            FROM promocodes_holds WHERE code = counter AND expires > p_now
        ) AS held;
        IF k_seq IS NOT NULL AND k_follows IS NOT TRUE THEN
            RETURN QUERY SELECT 'replay'::text, k_reservation;
            RETURN;
        END IF;
        IF c_total <> p_total OR c_mine <> p_mine OR c_discounted <> p_discounted
            OR c_code IS DISTINCT FROM p_per_code THEN
            RETURN QUERY SELECT 'stale'::text, NULL::jsonb;
            RETURN;
        END IF;
    END LOOP;

    IF k_seq IS NOT NULL THEN
        -- The expired hold stays in the history, marked expired; the key moves to the capture.
        UPDATE promocodes_redemptions
        SET state = 'expired', reservation = jsonb_set(reservation, '{state}', '"expired"')
        WHERE seq = k_seq;
        DELETE FROM promocodes_holds WHERE seq = k_seq;
        DELETE FROM promocodes_idempotency_keys WHERE code = p_code AND key = p_key;
    END IF;
    -- One statement: the reservation, and its key, its hold or its counts.
    WITH r AS (
        INSERT INTO promocodes_redemptions(code, idempotency_key, state, reservation, campaign)
        VALUES (p_code, p_key, p_state, p_reservation, p_campaign)
        RETURNING seq
    ), k AS (
        INSERT INTO promocodes_idempotency_keys(code, key, seq)
        SELECT p_code, p_key, r.seq FROM r WHERE p_key IS NOT NULL
    ), h AS (
        INSERT INTO promocodes_holds(seq, code, customer, expires, discount, through)
        SELECT r.seq, counter, p_customer, p_expires, p_discount, CASE WHEN p_campaign IS NOT NULL THEN p_code END
        FROM r WHERE p_expires IS NOT NULL
    ), c AS (
        INSERT INTO promocodes_usage_customer(code, customer, n)
        SELECT counter, p_customer, 1 WHERE p_expires IS NULL AND p_customer IS NOT NULL
        ON CONFLICT (code, customer) DO UPDATE SET n = promocodes_usage_customer.n + 1
    ), u AS (
        INSERT INTO promocodes_usage_code(code, n)
        SELECT p_code, 1 WHERE p_expires IS NULL AND p_campaign IS NOT NULL
        ON CONFLICT (code) DO UPDATE SET n = promocodes_usage_code.n + 1
    )
    INSERT INTO promocodes_usage_total(code, n, discounted)
    SELECT counter, 1, p_discount WHERE p_expires IS NULL
    ON CONFLICT (code) DO UPDATE
    SET n = promocodes_usage_total.n + 1, discounted = promocodes_usage_total.discounted + p_discount;
    RETURN QUERY SELECT 'written'::text, NULL::jsonb;
END
$fn$;
"#;

/// The compare-and-set of a new use, as the newest schema defines it (for the tests).
#[cfg(test)]
pub(crate) const RECORD_FUNCTION: &str = RECORD_FUNCTION_V5;

/// The schema's versions, in order: each runs once, in one transaction.
pub(crate) const MIGRATIONS: &[(i32, &str)] = &[
    (
        1,
        r#"
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
"#,
    ),
    (2, RECORD_FUNCTION_V2),
    (
        3,
        // Budgets: each captured use's discount summed per code, each hold's discount beside it,
        // and the compare-and-set comparing the sum as part of the counts.
        concat!(
            r#"
ALTER TABLE promocodes_usage_total ADD COLUMN discounted numeric NOT NULL DEFAULT 0 CHECK (discounted >= 0);
ALTER TABLE promocodes_holds ADD COLUMN discount numeric NOT NULL DEFAULT 0 CHECK (discount >= 0);
DROP FUNCTION promocodes_record(text, text, text, text, text, text, bigint, bigint, jsonb, text);
-- The uses recorded before: their discounts, from their reservations.
UPDATE promocodes_usage_total u SET discounted = COALESCE((
    SELECT sum((r.reservation->'quote'->'discount'->>'amount')::numeric)
    FROM promocodes_redemptions r WHERE r.code = u.code AND r.state = 'captured'), 0);
UPDATE promocodes_holds h SET discount = (r.reservation->'quote'->'discount'->>'amount')::numeric
FROM promocodes_redemptions r WHERE r.seq = h.seq;
"#,
            record_function!()
        ),
    ),
    (
        4,
        // Campaigns: a campaign's uses count under `campaign:<id>` in the counts' `code` columns;
        // each code's captured uses beside them, each hold's code, each reservation's campaign.
        concat!(
            r#"
CREATE TABLE promocodes_usage_code(
    code text PRIMARY KEY,
    n bigint NOT NULL CHECK (n >= 0));
ALTER TABLE promocodes_holds ADD COLUMN through text;
ALTER TABLE promocodes_redemptions ADD COLUMN campaign text;
CREATE INDEX promocodes_holds_through ON promocodes_holds(code, through, expires) WHERE through IS NOT NULL;
DROP FUNCTION promocodes_record(text, text, text, text, text, text, bigint, bigint, jsonb, text, numeric, numeric);
"#,
            record_function_v4!()
        ),
    ),
    (5, RECORD_FUNCTION_V5),
];

/// The advisory lock [`PgRedemptionStore::migrate`] takes (with the schema's
/// name), so that processes starting together migrate one after the other.
pub(crate) const MIGRATION_LOCK: i32 = 0x7072_6f6d; // "prom"

/// The first key of the code locks (the second is the code's `hashtext`):
/// "pcod". An application that takes advisory locks of its own should
/// avoid this first key.
pub const ADVISORY_LOCK_KEY: i32 = 0x7063_6f64;

/// Takes the code's write lock for the rest of the transaction: a
/// transaction-scoped advisory lock, which lives in memory only (a write
/// that takes it and then finds it has lost its race writes nothing at all,
/// not even a row lock to the log, so its commit waits for no disk).
pub(crate) const LOCK: &str = "SELECT pg_advisory_xact_lock(1885564772, hashtext($1))";

/// Every write's transaction, whatever the database's or the role's default
/// isolation: a read that follows the code's lock must see every write
/// committed before it, which takes a snapshot per statement.
pub(crate) const BEGIN: &str = "BEGIN ISOLATION LEVEL READ COMMITTED";

/// The counts at `$3` for `$1` and customer `$2` (NULL for none), from one snapshot.
pub(crate) const READ: &str = "
SELECT
    COALESCE((SELECT n FROM promocodes_usage_total WHERE code = $1), 0) AS total,
    COALESCE((SELECT n FROM promocodes_usage_customer WHERE code = $1 AND customer = $2), 0) AS mine,
    (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $3) AS held,
    (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $3 AND customer = $2) AS held_mine,
    (COALESCE((SELECT discounted FROM promocodes_usage_total WHERE code = $1), 0)
        + COALESCE((SELECT sum(discount) FROM promocodes_holds WHERE code = $1 AND expires > $3), 0))::text AS discounted";

/// The counts at `$3` under campaign counter `$1` (`campaign:<id>`) for
/// customer `$2` (NULL for none), with the uses of its code `$4`, from one snapshot.
pub(crate) const READ_THROUGH: &str = "
SELECT
    COALESCE((SELECT n FROM promocodes_usage_total WHERE code = $1), 0) AS total,
    COALESCE((SELECT n FROM promocodes_usage_customer WHERE code = $1 AND customer = $2), 0) AS mine,
    (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $3) AS held,
    (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $3 AND customer = $2) AS held_mine,
    (COALESCE((SELECT discounted FROM promocodes_usage_total WHERE code = $1), 0)
        + COALESCE((SELECT sum(discount) FROM promocodes_holds WHERE code = $1 AND expires > $3), 0))::text AS discounted,
    COALESCE((SELECT n FROM promocodes_usage_code WHERE code = $4), 0)
        + (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND through = $4 AND expires > $3) AS code_uses";

/// The reservation under key `$2` of code `$1`, and the campaign it counts under.
pub(crate) const KEYED: &str = "
SELECT k.seq, r.reservation, r.campaign FROM (SELECT 1) AS one
LEFT JOIN promocodes_idempotency_keys k ON k.code = $1 AND k.key = $2
LEFT JOIN promocodes_redemptions r ON r.seq = k.seq";

/// How many holds of `$1` count at `$2`.
pub(crate) const HELD: &str = "SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $2";

/// The compare-and-set of a new use as schema version 2 made it (kept as it
/// ran, since a migration never changes; version 3 replaces it).
pub(crate) const RECORD_FUNCTION_V2: &str = r#"
CREATE OR REPLACE FUNCTION promocodes_record(
    p_code text, p_customer text, p_now text, p_key text, p_state text, p_expires text,
    p_total bigint, p_mine bigint, p_reservation jsonb, p_after_expired text)
RETURNS TABLE(what text, earlier jsonb)
LANGUAGE plpgsql VOLATILE
SET search_path FROM CURRENT
AS $fn$
DECLARE
    k_seq bigint;
    k_reservation jsonb;
    k_follows boolean;
    c_total bigint;
    c_mine bigint;
    new_seq bigint;
BEGIN
    -- The look after the lock must see what was committed before it: one snapshot per statement.
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'promocodes_record runs at READ COMMITTED, not %', current_setting('transaction_isolation');
    END IF;
    FOR pass IN 1..2 LOOP
        IF pass = 2 THEN
            PERFORM pg_advisory_xact_lock(1885564772, hashtext(p_code));
        END IF;
        k_seq := NULL;
        IF p_key IS NOT NULL THEN
            -- k_follows: this capture names the hold under the key, and it has expired at p_now.
            SELECT k.seq, r.reservation,
                (p_expires IS NULL AND r.state = 'held' AND h.expires <= p_now AND h.expires = p_after_expired)
            INTO k_seq, k_reservation, k_follows
            FROM promocodes_idempotency_keys k
            JOIN promocodes_redemptions r ON r.seq = k.seq
            LEFT JOIN promocodes_holds h ON h.seq = k.seq
            WHERE k.code = p_code AND k.key = p_key;
        END IF;
        IF k_seq IS NOT NULL AND k_follows IS NOT TRUE THEN
            RETURN QUERY SELECT 'replay'::text, k_reservation;
            RETURN;
        END IF;
        SELECT COALESCE((SELECT n FROM promocodes_usage_total WHERE code = p_code), 0)
                + (SELECT count(*) FROM promocodes_holds WHERE code = p_code AND expires > p_now),
            CASE WHEN p_customer IS NULL THEN 0 ELSE
                COALESCE((SELECT n FROM promocodes_usage_customer WHERE code = p_code AND customer = p_customer), 0)
                + (SELECT count(*) FROM promocodes_holds
                   WHERE code = p_code AND expires > p_now AND customer = p_customer)
            END
        INTO c_total, c_mine;
        IF c_total <> p_total OR c_mine <> p_mine THEN
            RETURN QUERY SELECT 'stale'::text, NULL::jsonb;
            RETURN;
        END IF;
    END LOOP;

    IF k_seq IS NOT NULL THEN
        -- The expired hold stays in the history, marked expired; the key moves to the capture.
        UPDATE promocodes_redemptions
        SET state = 'expired', reservation = jsonb_set(reservation, '{state}', '"expired"')
        WHERE seq = k_seq;
        DELETE FROM promocodes_holds WHERE seq = k_seq;
        DELETE FROM promocodes_idempotency_keys WHERE code = p_code AND key = p_key;
    END IF;
    INSERT INTO promocodes_redemptions(code, idempotency_key, state, reservation)
    VALUES (p_code, p_key, p_state, p_reservation)
    RETURNING seq INTO new_seq;
    IF p_key IS NOT NULL THEN
        INSERT INTO promocodes_idempotency_keys(code, key, seq) VALUES (p_code, p_key, new_seq);
    END IF;
    IF p_expires IS NOT NULL THEN
        INSERT INTO promocodes_holds(seq, code, customer, expires) VALUES (new_seq, p_code, p_customer, p_expires);
    END IF;
    IF p_expires IS NULL THEN
        INSERT INTO promocodes_usage_total(code, n) VALUES (p_code, 1)
        ON CONFLICT (code) DO UPDATE SET n = promocodes_usage_total.n + 1;
        IF p_customer IS NOT NULL THEN
            INSERT INTO promocodes_usage_customer(code, customer, n) VALUES (p_code, p_customer, 1)
            ON CONFLICT (code, customer) DO UPDATE SET n = promocodes_usage_customer.n + 1;
        END IF;
    END IF;
    RETURN QUERY SELECT 'written'::text, NULL::jsonb;
END
$fn$;
"#;

/// One compare-and-set of a new use, as one statement, sent after
/// [`BEGIN`] and the code's [`LOCK`] (and, for a campaign's code, the
/// campaign's, after the code's) in the same round trip: at `READ
/// COMMITTED` its snapshot is taken after the locks, so it sees every write
/// of the code committed before it.
///
/// The parameters are `promocodes_record`'s, in its order: the code `$1`,
/// customer `$2`, `now` `$3`, key `$4`, the new reservation's state `$5`,
/// a hold's expiry `$6` (NULL for a capture), the counts compared (`$7`
/// overall, `$8` the customer's, `$11` the discount sum as decimal text,
/// `$14` the code's own uses for a campaign's code), the reservation `$9`,
/// the expired hold a capture follows `$10`, the use's discount `$12` and
/// the campaign `$13`. It answers as the function did:
///
/// - `replay` with the reservation under the key, when the key is known
///   (but for a capture that names, in `$10`, the hold under the key,
///   expired at `$3`: [`Redemption::follows_expired_hold`], in SQL);
/// - `stale` when the counts at `$3` are not exactly the ones compared;
///   nothing is written, and `total`, `mine` and `discounted` say what
///   they were (under the lock: what the next try can write on);
/// - `written`: the reservation (its JSON, with the counts after it, made
///   by the caller, since it can only land on exactly the counts
///   compared), its key, and the hold (reserving `$12`) or the captured
///   counts (`$12` added to the sum). A capture that follows an expired
///   hold takes its key; the hold stays in the history, marked `expired`.
///
/// One statement instead of the PL/pgSQL function of schema version 5 (kept
/// installed for processes of an earlier version during an upgrade; it
/// takes the same locks and writes the same rows): the server starts one
/// executor instead of one per statement of the function: 9% more
/// captures/s on one connection in an A/B (docs/performance.md). The
/// function's first look without the lock is gone with it: a write from
/// another process that lost its race now waits for the lock before it
/// answers stale (it still writes nothing, so its commit waits for no disk).
///
/// [`Redemption::follows_expired_hold`]: promocodes::Redemption::follows_expired_hold
pub(crate) const RECORD: &str = r#"
WITH look AS (
    SELECT k.seq AS k_seq, r.reservation AS k_reservation,
        ($6::text IS NULL AND r.state = 'held' AND h.expires <= $3::text AND h.expires = $10::text) AS k_follows,
        COALESCE(t.n, 0) + held.n AS total,
        CASE WHEN $2::text IS NULL THEN 0 ELSE COALESCE(c.n, 0) + held.mine END AS mine,
        COALESCE(t.discounted, 0) + held.discounted AS discounted,
        CASE WHEN $13::text IS NULL THEN NULL ELSE COALESCE(u.n, 0) + held.through_code END AS code_uses
    FROM (SELECT COALESCE('campaign:' || $13::text, $1::text) AS counter) AS one
    LEFT JOIN promocodes_idempotency_keys k ON $4::text IS NOT NULL AND k.code = $1::text AND k.key = $4::text
    LEFT JOIN promocodes_redemptions r ON r.seq = k.seq
    LEFT JOIN promocodes_holds h ON h.seq = k.seq
    LEFT JOIN promocodes_usage_total t ON t.code = one.counter
    LEFT JOIN promocodes_usage_customer c ON $2::text IS NOT NULL AND c.code = one.counter AND c.customer = $2::text
    LEFT JOIN promocodes_usage_code u ON $13::text IS NOT NULL AND u.code = $1::text
    CROSS JOIN LATERAL (
        SELECT count(*) AS n,
            count(*) FILTER (WHERE customer = $2::text) AS mine,
            COALESCE(sum(discount), 0) AS discounted,
            count(*) FILTER (WHERE through = $1::text) AS through_code
        FROM promocodes_holds WHERE code = one.counter AND expires > $3::text
    ) AS held
), go AS (
    -- The write goes ahead: a new key, or the expired hold the capture follows; the same counts.
    SELECT k_seq, COALESCE('campaign:' || $13::text, $1::text) AS counter FROM look
    WHERE (k_seq IS NULL OR k_follows)
        AND total = $7::bigint AND mine = $8::bigint AND discounted = $11::text::numeric
        AND code_uses IS NOT DISTINCT FROM $14::bigint
), expired AS (
    -- The expired hold stays in the history, marked expired; its key moves to the capture (k2).
    UPDATE promocodes_redemptions
    SET state = 'expired', reservation = jsonb_set(reservation, '{state}', '"expired"')
    WHERE seq = (SELECT k_seq FROM go)
), unheld AS (
    DELETE FROM promocodes_holds WHERE seq = (SELECT k_seq FROM go)
), r AS (
    INSERT INTO promocodes_redemptions(code, idempotency_key, state, reservation, campaign)
    SELECT $1::text, $4::text, $5::text, $9::jsonb, $13::text FROM go
    RETURNING seq
), k AS (
    INSERT INTO promocodes_idempotency_keys(code, key, seq)
    SELECT $1::text, $4::text, r.seq FROM r, go WHERE $4::text IS NOT NULL AND go.k_seq IS NULL
), k2 AS (
    UPDATE promocodes_idempotency_keys SET seq = r.seq FROM r, go
    WHERE go.k_seq IS NOT NULL AND code = $1::text AND key = $4::text
), h AS (
    INSERT INTO promocodes_holds(seq, code, customer, expires, discount, through)
    SELECT r.seq, go.counter, $2::text, $6::text, $12::text::numeric, CASE WHEN $13::text IS NOT NULL THEN $1::text END
    FROM r, go WHERE $6::text IS NOT NULL
), c AS (
    INSERT INTO promocodes_usage_customer(code, customer, n)
    SELECT go.counter, $2::text, 1 FROM go WHERE $6::text IS NULL AND $2::text IS NOT NULL
    ON CONFLICT (code, customer) DO UPDATE SET n = promocodes_usage_customer.n + 1
), u AS (
    INSERT INTO promocodes_usage_code(code, n)
    SELECT $1::text, 1 FROM go WHERE $6::text IS NULL AND $13::text IS NOT NULL
    ON CONFLICT (code) DO UPDATE SET n = promocodes_usage_code.n + 1
), t AS (
    INSERT INTO promocodes_usage_total(code, n, discounted)
    SELECT go.counter, 1, $12::text::numeric FROM go WHERE $6::text IS NULL
    ON CONFLICT (code) DO UPDATE
    SET n = promocodes_usage_total.n + 1, discounted = promocodes_usage_total.discounted + EXCLUDED.discounted
)
SELECT CASE
        WHEN look.k_seq IS NOT NULL AND look.k_follows IS NOT TRUE THEN 'replay'
        WHEN EXISTS (SELECT 1 FROM go) THEN 'written'
        ELSE 'stale'
    END AS what,
    CASE WHEN look.k_seq IS NOT NULL AND look.k_follows IS NOT TRUE THEN look.k_reservation END AS earlier,
    look.total, look.mine, look.discounted::text AS discounted
FROM look"#;

/// Rewrites the reservation at `$1`; drops its hold row (`$5`); moves the
/// captured counts of code `$2` (a campaign's counter for a campaign's
/// code) and customer `$3` by `$4` (-1, 0 or 1), the captured discount sum
/// by `$8` (decimal text), and for a campaign's code `$9` its own captured uses.
pub(crate) const UPDATE: &str = "
WITH r AS (
    UPDATE promocodes_redemptions SET state = $6::text, reservation = $7::jsonb WHERE seq = $1::bigint
), h AS (
    DELETE FROM promocodes_holds WHERE seq = $1::bigint AND $5::boolean
), t AS (
    INSERT INTO promocodes_usage_total(code, n, discounted)
    SELECT $2::text, GREATEST($4::bigint, 0), GREATEST($8::text::numeric, 0) WHERE $4::bigint <> 0
    ON CONFLICT (code) DO UPDATE SET n = promocodes_usage_total.n + $4::bigint,
        discounted = GREATEST(promocodes_usage_total.discounted + $8::text::numeric, 0)
), c AS (
    INSERT INTO promocodes_usage_customer(code, customer, n)
    SELECT $2::text, $3::text, GREATEST($4::bigint, 0) WHERE $3::text IS NOT NULL AND $4::bigint <> 0
    ON CONFLICT (code, customer) DO UPDATE SET n = promocodes_usage_customer.n + $4::bigint
), u AS (
    INSERT INTO promocodes_usage_code(code, n)
    SELECT $9::text, GREATEST($4::bigint, 0) WHERE $9::text IS NOT NULL AND $4::bigint <> 0
    ON CONFLICT (code) DO UPDATE SET n = promocodes_usage_code.n + $4::bigint
)
SELECT 1";
