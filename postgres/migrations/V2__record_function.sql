-- Schema version 2: `promocodes_record`, the compare-and-set of a new use as one function, so
-- that it is one statement from the client and yet reads twice (PL/pgSQL takes a snapshot per
-- statement at READ COMMITTED): a known key answers `replay`, counts other than the ones compared
-- answer `stale`, first without any lock, then again under the code's advisory lock; else it
-- writes the reservation, its key, and the hold or the captured counts. A capture that follows an
-- expired hold takes its key; the hold stays in the history, marked `expired`. Kept as it ran:
-- a migration never changes (version 3 replaces the function).

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
