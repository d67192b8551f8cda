//! The statements the store sends: the code's lock, the reads, and the compare-and-set of a
//! new use ([`RECORD`]). The migrations are SQL files in `postgres/migrations/` (see
//! [`crate::migrate`]).

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
        + COALESCE((SELECT sum(discount) FROM promocodes_holds WHERE code = $1 AND expires > $3), 0)) AS discounted";

/// The counts at `$3` under campaign counter `$1` (`campaign:<id>`) for
/// customer `$2` (NULL for none), with the uses of its code `$4`, from one snapshot.
pub(crate) const READ_THROUGH: &str = "
SELECT
    COALESCE((SELECT n FROM promocodes_usage_total WHERE code = $1), 0) AS total,
    COALESCE((SELECT n FROM promocodes_usage_customer WHERE code = $1 AND customer = $2), 0) AS mine,
    (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $3) AS held,
    (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $3 AND customer = $2) AS held_mine,
    (COALESCE((SELECT discounted FROM promocodes_usage_total WHERE code = $1), 0)
        + COALESCE((SELECT sum(discount) FROM promocodes_holds WHERE code = $1 AND expires > $3), 0)) AS discounted,
    COALESCE((SELECT n FROM promocodes_usage_code WHERE code = $4), 0)
        + (SELECT count(*) FROM promocodes_holds WHERE code = $1 AND through = $4 AND expires > $3) AS code_uses";

/// The reservation under key `$2` of code `$1`, and the campaign it counts under.
pub(crate) const KEYED: &str = "
SELECT k.seq, r.reservation, r.campaign FROM (SELECT 1) AS one
LEFT JOIN promocodes_idempotency_keys k ON k.code = $1 AND k.key = $2
LEFT JOIN promocodes_redemptions r ON r.seq = k.seq";

/// How many holds of `$1` count at `$2`.
pub(crate) const HELD: &str = "SELECT count(*) FROM promocodes_holds WHERE code = $1 AND expires > $2";

/// One compare-and-set of a new use, as one statement, sent after
/// [`BEGIN`] and the code's [`LOCK`] (and, for a campaign's code, the
/// campaign's, after the code's) in the same round trip: at `READ
/// COMMITTED` its snapshot is taken after the locks, so it sees every write
/// of the code committed before it.
///
/// The parameters are `promocodes_record`'s, in its order: the code `$1`,
/// customer `$2`, `now` `$3`, key `$4`, the new reservation's state `$5`,
/// a hold's expiry `$6` (NULL for a capture), the counts compared (`$7`
/// overall, `$8` the customer's, `$11` the discount sum,
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
        AND total = $7::bigint AND mine = $8::bigint AND discounted = $11::numeric
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
    SELECT r.seq, go.counter, $2::text, $6::text, $12::numeric, CASE WHEN $13::text IS NOT NULL THEN $1::text END
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
    SELECT go.counter, 1, $12::numeric FROM go WHERE $6::text IS NULL
    ON CONFLICT (code) DO UPDATE
    SET n = promocodes_usage_total.n + 1, discounted = promocodes_usage_total.discounted + EXCLUDED.discounted
)
SELECT CASE
        WHEN look.k_seq IS NOT NULL AND look.k_follows IS NOT TRUE THEN 'replay'
        WHEN EXISTS (SELECT 1 FROM go) THEN 'written'
        ELSE 'stale'
    END AS what,
    CASE WHEN look.k_seq IS NOT NULL AND look.k_follows IS NOT TRUE THEN look.k_reservation END AS earlier,
    look.total, look.mine, look.discounted
FROM look"#;

/// Rewrites the reservation at `$1`; drops its hold row (`$5`); moves the
/// captured counts of code `$2` (a campaign's counter for a campaign's
/// code) and customer `$3` by `$4` (-1, 0 or 1), the captured discount sum
/// by `$8`, and for a campaign's code `$9` its own captured uses.
pub(crate) const UPDATE: &str = "
WITH r AS (
    UPDATE promocodes_redemptions SET state = $6::text, reservation = $7::jsonb WHERE seq = $1::bigint
), h AS (
    DELETE FROM promocodes_holds WHERE seq = $1::bigint AND $5::boolean
), t AS (
    INSERT INTO promocodes_usage_total(code, n, discounted)
    SELECT $2::text, GREATEST($4::bigint, 0), GREATEST($8::numeric, 0) WHERE $4::bigint <> 0
    ON CONFLICT (code) DO UPDATE SET n = promocodes_usage_total.n + $4::bigint,
        discounted = GREATEST(promocodes_usage_total.discounted + $8::numeric, 0)
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
