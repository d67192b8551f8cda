-- Schema version 4, campaigns: a campaign's uses count under `campaign:<id>` in the counts' `code`
-- columns (behind the campaign's own lock, taken after the code's); each code's captured uses
-- beside them (`promocodes_usage_code`), each hold's code (`through`), each reservation's
-- campaign; `promocodes_record` compares the code's own uses (`p_per_code`) with the rest.

CREATE TABLE promocodes_usage_code(
    code text PRIMARY KEY,
    n bigint NOT NULL CHECK (n >= 0));
ALTER TABLE promocodes_holds ADD COLUMN through text;
ALTER TABLE promocodes_redemptions ADD COLUMN campaign text;
CREATE INDEX promocodes_holds_through ON promocodes_holds(code, through, expires) WHERE through IS NOT NULL;
DROP FUNCTION promocodes_record(text, text, text, text, text, text, bigint, bigint, jsonb, text, numeric, numeric);

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
