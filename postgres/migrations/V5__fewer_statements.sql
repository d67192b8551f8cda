-- Schema version 5: `promocodes_record` as version 4's, in fewer statements (each costs the
-- server an executor's start and end): the key and every count in one read, and the reservation,
-- its key, its hold or its counts in one write. The store now sends the same decision as one
-- statement (`RECORD` in src/sql.rs) and leaves this function installed, so that a process of an
-- earlier version still running during an upgrade keeps working.

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
