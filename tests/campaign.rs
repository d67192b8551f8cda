//! Campaigns of many codes: each code's own cap, the campaign's caps and
//! budget across all of its codes, and real threads racing on them.

mod common;

use std::collections::HashSet;
use std::sync::{Arc, Barrier, Mutex};
use std::thread;

use common::*;
use promocodes::{
    capture, hold, release, BudgetShort, Campaign, CaptureOptions, HoldOptions, InMemoryRedemptionStore, PromoCode,
    RedemptionError, RedemptionStore, Rejection, UsageCounts, UsageLimits,
};

/// Campaign `id`: 10% off, `limits`, each code usable `uses_per_code` times.
fn campaign(id: &str, limits: UsageLimits, uses_per_code: u64) -> Campaign {
    let definition = ten_percent(id).limits(limits).build().expect("valid definition");
    Campaign::new(definition, uses_per_code).expect("valid campaign")
}

fn rejection(result: Result<impl std::fmt::Debug, RedemptionError>) -> Rejection {
    match result {
        Err(RedemptionError::Rejected(r)) => r.rejection(),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

fn capture_as(
    promo: &PromoCode,
    store: &InMemoryRedemptionStore,
    who: Option<&str>,
) -> Result<UsageCounts, RedemptionError> {
    let customer = who.map(customer);
    capture(
        promo,
        store,
        customer.as_ref(),
        &basket("80.00"),
        start(),
        CaptureOptions::new(),
    )
    .map(|receipt| receipt.usage)
}

#[test]
fn a_campaign_code_is_the_campaigns_definition_with_its_own_code() {
    let bf = campaign("BF", UsageLimits::new(Some(150), Some(1)).unwrap(), 1);
    let promo = bf.code(code("bf-k7pq-x2m9"));
    assert_eq!(promo.code().as_str(), "BF-K7PQ-X2M9");
    assert_eq!(promo.campaign().map(|id| id.as_str()), Some("BF"));
    assert_eq!(promo.uses_per_code(), Some(1));
    assert_eq!(promo.limits(), bf.definition().limits());
    let json = serde_json::to_value(&promo).unwrap();
    assert_eq!(json["code"], "BF-K7PQ-X2M9");
    assert_eq!(json["campaign"], "BF");
    assert_eq!(json["uses_per_code"], 1);
    let public = serde_json::to_value(promo.public_view()).unwrap();
    assert_eq!(
        public["campaign"], "BF",
        "the public sees the campaign's definition, naming it"
    );
    assert_eq!(public["uses_per_code"], 1);
    assert!(public.get("audience").is_none());
    let shown = serde_json::to_value(&bf).unwrap();
    assert_eq!(shown["id"], "BF");
    assert!(shown.get("code").is_none(), "a campaign has no code of its own");
    assert_eq!(shown["uses_per_code"], 1);
    assert!(
        Campaign::new(ten_percent("BF").build().unwrap(), 0).is_err(),
        "uses_per_code of 0"
    );
}

#[test]
fn a_code_used_up_is_exhausted_and_the_others_still_work() {
    let store = InMemoryRedemptionStore::new();
    let vip = campaign("VIP", UsageLimits::UNLIMITED, 2);
    let (anna, ben) = (vip.code(code("VIP-ANNA")), vip.code(code("VIP-BEN")));
    let first = capture_as(&anna, &store, None).expect("first use");
    assert_eq!((first.total(), first.code_uses()), (1, 1));
    capture_as(&anna, &store, None).expect("second use");
    assert_eq!(rejection(capture_as(&anna, &store, None)), Rejection::Exhausted);
    let other = capture_as(&ben, &store, None).expect("another code of the campaign");
    assert_eq!((other.total(), other.code_uses()), (3, 1));
}

#[test]
fn the_campaigns_total_and_per_customer_caps_hold_across_its_codes() {
    let store = InMemoryRedemptionStore::new();
    let spring = campaign("SPRING", UsageLimits::new(Some(2), Some(1)).unwrap(), 1);
    let codes: Vec<_> = ["SP-1", "SP-2", "SP-3"].map(|c| spring.code(code(c))).into();
    capture_as(&codes[0], &store, Some("alice")).expect("alice's one use");
    assert_eq!(
        rejection(capture_as(&codes[1], &store, Some("alice"))),
        Rejection::CustomerLimitReached,
        "per_customer counts every code of the campaign"
    );
    capture_as(&codes[1], &store, Some("bob")).expect("bob's");
    assert_eq!(
        rejection(capture_as(&codes[2], &store, Some("carol"))),
        Rejection::Exhausted,
        "the campaign's total counts every code"
    );
}

#[test]
fn the_budget_holds_across_codes_and_a_release_gives_back_to_both() {
    let store = InMemoryRedemptionStore::new();
    let limits = UsageLimits::UNLIMITED
        .with_budget(eur("10.00"), BudgetShort::Refuse)
        .unwrap();
    let promo = campaign("BUDGET", limits, 1);
    let (a, b) = (promo.code(code("BUDGET-A")), promo.code(code("BUDGET-B")));
    let order = key("pi_a");
    capture(
        &a,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().idempotency_key(&order),
    )
    .expect("EUR 8.00 of 10.00");
    assert_eq!(
        rejection(capture_as(&b, &store, None)),
        Rejection::BudgetExhausted,
        "the other code finds EUR 2.00 left"
    );
    let refunded = release(&store, a.code(), &order, start(), Some("refunded")).expect("released");
    assert_eq!(refunded.usage.code_uses(), 0);
    assert_eq!(refunded.usage.total(), 0);
    capture_as(&b, &store, None).expect("the budget is back for every code");
    assert_eq!(
        rejection(capture_as(&a, &store, None)),
        Rejection::BudgetExhausted,
        "the released code is usable again, but the budget has EUR 2.00 left"
    );
}

#[test]
fn a_campaign_codes_remaining_counts_the_campaigns_budget_in_full_size_uses() {
    let store = InMemoryRedemptionStore::new();
    let limits = UsageLimits::new(Some(100), None)
        .unwrap()
        .with_budget(eur("20.00"), BudgetShort::Refuse)
        .unwrap();
    let fixed = PromoCode::builder(code("FIVE"), promocodes::Discount::fixed(eur("5.00")).unwrap())
        .limits(limits)
        .build()
        .unwrap();
    let promo = Campaign::new(fixed, 3).unwrap();
    let (a, b) = (promo.code(code("FIVE-A")), promo.code(code("FIVE-B")));
    let remaining = |c: &PromoCode| c.remaining_uses(store.uses_through(promo.id(), c.code(), None, start()).unwrap());
    assert_eq!(
        remaining(&a),
        Some(3),
        "the code's own 3 uses bound it before the budget's 4"
    );
    capture_as(&b, &store, None).unwrap();
    capture_as(&b, &store, None).unwrap();
    // EUR 10.00 of 20.00 spent through B: A has its 3 uses, the budget 2 of them.
    assert_eq!(remaining(&a), Some(2));
    assert_eq!(remaining(&b), Some(1), "B's own cap leaves 1");
    capture_as(&a, &store, None).unwrap();
    capture_as(&a, &store, None).unwrap();
    assert_eq!(remaining(&a), Some(0));
    assert_eq!(rejection(capture_as(&b, &store, None)), Rejection::BudgetExhausted);
}

#[test]
fn a_held_campaign_code_is_used_until_the_hold_expires() {
    let store = InMemoryRedemptionStore::new();
    let once = campaign("ONCE", UsageLimits::UNLIMITED, 1);
    let promo = once.code(code("ONCE-1"));
    let pi = key("pi_h");
    let held = hold(&promo, &store, None, &basket("80.00"), start(), &pi, HoldOptions::new()).expect("held");
    assert_eq!(held.usage.code_uses(), 1);
    assert_eq!(rejection(capture_as(&promo, &store, None)), Rejection::Exhausted);
    let captured = capture(
        &promo,
        &store,
        None,
        &basket("80.00"),
        start(),
        CaptureOptions::new().idempotency_key(&pi),
    )
    .expect("the hold's own capture");
    assert!(!captured.replayed);
    assert_eq!(captured.usage.code_uses(), 1);
    let later = held.expires_at.checked_add_seconds(1).unwrap();
    let still = store.uses_through(once.id(), promo.code(), None, later).unwrap();
    assert_eq!(still.code_uses(), 1, "a capture does not expire");
}

/// 300 captures of 200 single-use codes of a campaign with `total: 150`,
/// on 8 threads at once: exactly 150 receipts, each code used at most once.
#[test]
fn racing_captures_of_single_use_codes_never_pass_the_campaigns_total() {
    const THREADS: usize = 8;
    const CAPTURES: usize = 300;
    let store = Arc::new(InMemoryRedemptionStore::new());
    let bf = campaign("RACE", UsageLimits::new(Some(150), None).unwrap(), 1);
    let codes: Arc<Vec<PromoCode>> = Arc::new((0..200).map(|i| bf.code(code(&format!("RACE-{i:04}")))).collect());
    let barrier = Arc::new(Barrier::new(THREADS));
    let used = Arc::new(Mutex::new(Vec::new()));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (store, codes, barrier, used) = (
                Arc::clone(&store),
                Arc::clone(&codes),
                Arc::clone(&barrier),
                Arc::clone(&used),
            );
            thread::spawn(move || {
                barrier.wait();
                let mut refused = 0;
                for i in (t..CAPTURES).step_by(THREADS) {
                    // Captures 200..300 try the codes 0..100 again, on other threads.
                    let promo = &codes[(i * 7) % 200];
                    let options = CaptureOptions::new().attempts(10_000);
                    match capture(promo, &*store, None, &basket("80.00"), start(), options) {
                        Ok(receipt) => used.lock().unwrap().push(receipt.quote.code().clone()),
                        Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::Exhausted => refused += 1,
                        Err(other) => panic!("unexpected outcome {other:?}"),
                    }
                }
                refused
            })
        })
        .collect();
    let refused: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    let used = used.lock().unwrap();
    assert_eq!(used.len(), 150, "exactly the campaign's total");
    assert_eq!(refused, CAPTURES - 150);
    let distinct: HashSet<_> = used.iter().collect();
    assert_eq!(distinct.len(), used.len(), "no code used twice");
    let counts = store.uses_through(bf.id(), codes[0].code(), None, start()).unwrap();
    assert_eq!(counts.total(), 150);
    assert_eq!(counts.discounted(), "1200.00".parse().unwrap());
}

/// 8 threads racing holds on distinct codes of a campaign with a budget of
/// EUR 100.00 and EUR 7.00 off each: with `partial`, the holds reserve
/// exactly EUR 100.00; with `refuse`, never more than it.
#[test]
fn racing_holds_on_a_campaigns_codes_never_pass_its_budget() {
    for (when_short, reserved) in [(BudgetShort::Partial, "100.00"), (BudgetShort::Refuse, "98.00")] {
        const THREADS: usize = 8;
        let store = Arc::new(InMemoryRedemptionStore::new());
        let limits = UsageLimits::UNLIMITED.with_budget(eur("100.00"), when_short).unwrap();
        let promo = campaign("SHARE", limits, 1);
        let barrier = Arc::new(Barrier::new(THREADS));
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let (store, promo, barrier) = (Arc::clone(&store), promo.clone(), Arc::clone(&barrier));
                thread::spawn(move || {
                    barrier.wait();
                    for i in 0..5 {
                        let code = promo.code(code(&format!("SHARE-{t}-{i}")));
                        let pi = key(&format!("pi_{t}_{i}"));
                        let options = HoldOptions::new().attempts(10_000);
                        match hold(&code, &*store, None, &basket("70.00"), start(), &pi, options) {
                            Ok(_) => {}
                            Err(RedemptionError::Rejected(r)) if r.rejection() == Rejection::BudgetExhausted => {}
                            Err(other) => panic!("unexpected outcome {other:?}"),
                        }
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.join().unwrap();
        }
        let counts = store
            .uses_through(promo.id(), &code("SHARE-0-0"), None, start())
            .unwrap();
        assert_eq!(counts.discounted(), reserved.parse().unwrap(), "{when_short:?}");
    }
}

#[test]
fn a_reservation_of_a_campaign_code_reads_back_as_it_was_written() {
    let store = InMemoryRedemptionStore::new();
    let once = campaign("JSON", UsageLimits::UNLIMITED, 3);
    let promo = once.code(code("JSON-1"));
    let pi = key("pi_json");
    let held = hold(&promo, &store, None, &basket("80.00"), start(), &pi, HoldOptions::new()).expect("held");
    let stored = store.reservation(promo.code(), &pi).unwrap().expect("kept");
    let text = serde_json::to_string(&stored).unwrap();
    assert!(text.contains(r#""per_code":1"#), "{text}");
    let back: promocodes::Reservation = serde_json::from_str(&text).unwrap();
    assert_eq!(back.usage, held.usage);
    assert!(serde_json::from_str::<UsageCounts>(r#"{"total": 1, "per_customer": 0, "per_code": 2}"#).is_err());
}

#[test]
fn a_pattern_needs_eight_random_characters_and_a_million_combinations_per_code() {
    use promocodes::{CodePattern, InputError};
    let err = CodePattern::parse(Some("BF-#######"), None).unwrap_err();
    assert!(
        matches!(err, InputError::PatternTooFewRandom { random: 7, min: 8, .. }),
        "{err:?}"
    );
    let two = CodePattern::parse(Some("####################"), Some("ab")).expect("20 # over 2 characters");
    assert_eq!(two.combinations(), 1 << 20);
    two.check_room(0, 1).expect("1,048,576 combinations for one code");
    let err = two.check_room(1, 1).unwrap_err();
    assert!(
        matches!(
            err,
            InputError::PatternTooSmall {
                codes: 2,
                needed: 2_000_000,
                ..
            }
        ),
        "{err:?}"
    );
    let default = CodePattern::parse(None, None).unwrap();
    assert_eq!(default.random_characters(), 12);
    default.check_room(990_000, 10_000).expect("the largest campaign");
    assert!(matches!(
        default.check_room(990_001, 10_000),
        Err(InputError::CampaignFull { codes: 1_000_001, .. })
    ));
    assert!(matches!(default.check_room(0, 0), Err(InputError::TooMany { .. })));
    assert!(matches!(default.check_room(0, 10_001), Err(InputError::TooMany { .. })));
    for (pattern, charset) in [
        (Some("BF ########"), None),
        (Some("BF:########"), None),
        (None, Some("AAB")),
        (None, Some("aA")),
        (None, Some("A")),
        (None, Some("AB#")),
    ] {
        assert!(
            matches!(
                CodePattern::parse(pattern, charset),
                Err(InputError::InvalidPattern { .. })
            ),
            "{pattern:?} {charset:?}"
        );
    }
    let long = format!("{}########", "X".repeat(57));
    assert!(CodePattern::parse(Some(&long), None).is_err(), "longer than a code");
}

#[test]
fn generated_codes_follow_the_pattern_draw_without_bias_and_do_not_repeat() {
    use promocodes::CodePattern;
    let pattern = CodePattern::parse(Some("bf-####-####"), Some("ab")).unwrap();
    // A draw past the last whole multiple of the charset's size (u32::MAX here) is drawn again.
    let mut draws = vec![u32::MAX, 0, 1, 0, 1, 0, 1, 0, 1].into_iter();
    let code = pattern.generate(|| draws.next().expect("enough draws"));
    assert_eq!(code.as_str(), "BF-ABAB-ABAB");
    // 10,000 codes of the default pattern from a seeded generator (xorshift, test only): all distinct.
    let pattern = CodePattern::parse(None, None).unwrap();
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 32) as u32
    };
    let codes: HashSet<_> = (0..10_000).map(|_| pattern.generate(&mut next)).collect();
    assert_eq!(codes.len(), 10_000);
    assert!(codes
        .iter()
        .all(|c| c.as_str().len() == 14 && c.as_str().chars().nth(4) == Some('-')));
    assert!(codes.iter().all(|c| c
        .as_str()
        .chars()
        .all(|ch| ch == '-' || CodePattern::DEFAULT_CHARSET.contains(ch))));
}

#[test]
fn an_import_names_each_code_once_as_codes_compare() {
    use promocodes::{CodePattern, InputError};
    CodePattern::check_import(&[code("VIP-ANNA"), code("VIP-BEN")]).expect("distinct");
    let err = CodePattern::check_import(&[code("VIP-ANNA"), code("vip-anna")]).unwrap_err();
    assert!(
        matches!(err, InputError::CodeImportedTwice { ref code } if code == "VIP-ANNA"),
        "{err:?}"
    );
}

#[test]
fn a_campaign_reads_from_json_without_a_code_of_its_own() {
    let campaign = Campaign::from_json(
        code("bf"),
        r#"{"discount": {"kind": "percent", "percent": "20"}, "limits": {"total": 150}, "uses_per_code": 2}"#,
    )
    .expect("valid");
    assert_eq!(campaign.id().as_str(), "BF");
    assert_eq!(campaign.uses_per_code(), 2);
    assert_eq!(campaign.definition().limits().total(), Some(150));
    let window = Campaign::from_json(
        code("bf"),
        r#"{"discount": {"kind": "percent", "percent": "20"},
            "starts_at": "2026-12-02T00:00:00Z", "ends_at": "2026-12-01T00:00:00Z"}"#,
    )
    .unwrap_err();
    assert_eq!(
        window.path(),
        Some("ends_at"),
        "a rule's error names its field as for a code"
    );
}

#[test]
fn a_campaigns_shards_read_write_and_reach_its_codes() {
    let campaign = Campaign::from_json(
        code("hot"),
        r#"{"discount": {"kind": "percent", "percent": "20"}, "uses_per_code": 2, "shards": 16}"#,
    )
    .expect("valid");
    assert_eq!(campaign.shards(), 16);
    let hot = campaign.code(code("hot-1"));
    assert_eq!(hot.shards(), 16, "each code carries its campaign's shards");
    let mut written: serde_json::Value = serde_json::to_value(&campaign).unwrap();
    assert_eq!(written["shards"], 16);
    written.as_object_mut().unwrap().remove("id");
    let again = Campaign::from_json(code("hot"), &written.to_string()).expect("reads back");
    assert_eq!(again, campaign);
    let read = PromoCode::from_written_json(&serde_json::to_string(&hot).unwrap()).unwrap();
    assert_eq!(read, hot, "a code's written definition keeps its shards");

    let one = Campaign::from_json(code("cool"), r#"{"discount": {"kind": "percent", "percent": "20"}}"#).unwrap();
    assert_eq!(one.shards(), 1);
    assert!(
        serde_json::to_value(&one).unwrap().get("shards").is_none(),
        "1 is left out"
    );
    for bad in ["0", "65", "\"4\""] {
        let json = format!(r#"{{"discount": {{"kind": "percent", "percent": "20"}}, "shards": {bad}}}"#);
        let refused = Campaign::from_json(code("bad"), &json).unwrap_err();
        assert_eq!(refused.path(), Some("shards"), "shards {bad}: {refused}");
    }
}

#[test]
fn a_shards_allotment_of_a_code_caps_it_there_and_leaves_every_other_rule() {
    let hot = campaign("HOT", UsageLimits::new(Some(10), Some(1)).unwrap(), 3);
    let one = hot.code(code("HOT-1"));
    let store = InMemoryRedemptionStore::new();
    let allotted = one.with_uses_per_code(1);
    assert_eq!(allotted.uses_per_code(), Some(1));
    assert_eq!(allotted.limits(), one.limits(), "the campaign's caps are untouched");
    capture_as(&allotted, &store, Some("ann")).expect("the one use allotted");
    assert_eq!(
        rejection(capture_as(&allotted, &store, Some("bob"))),
        Rejection::Exhausted
    );
    capture_as(&one.with_uses_per_code(2), &store, Some("bob")).expect("a second use once allotted");
    assert_eq!(
        rejection(capture_as(&one.with_uses_per_code(3), &store, Some("ann"))),
        Rejection::CustomerLimitReached,
        "the per-customer cap is the campaign's own"
    );
    let plain = ten_percent("PLAIN").build().unwrap();
    assert_eq!(plain.with_uses_per_code(1), plain, "a code of no campaign is as it was");
}

#[test]
fn usage_of_reads_a_campaign_code_through_its_campaign_and_a_plain_code_as_itself() {
    let store = InMemoryRedemptionStore::new();
    let vip = campaign("VIPS", UsageLimits::new(Some(10), None).unwrap(), 3);
    let anna = vip.code(code("VIPS-ANNA"));
    let plain = ten_percent("VIPS-ANNA").build().unwrap();
    capture_as(&anna, &store, None).expect("a use through the campaign");
    let through = store.usage_of(&anna, None, start()).unwrap();
    assert_eq!((through.total(), through.code_uses()), (1, 1));
    assert!(through.through_campaign());
    assert_eq!(anna.remaining_uses(through), Some(2), "the code's 3 less 1");
    let alone = store.usage_of(&plain, None, start()).unwrap();
    assert_eq!(alone, UsageCounts::ZERO, "a plain code of that name counts apart");
    assert!(!alone.through_campaign());
}

#[test]
fn a_written_definition_reads_back_whole_and_a_bad_one_says_where() {
    let bf = campaign("BF", UsageLimits::new(Some(150), Some(1)).unwrap(), 2);
    let code = bf.code(code("bf-1"));
    let written = serde_json::to_string(&code).unwrap();
    let read = PromoCode::from_written_json(&written).unwrap();
    assert_eq!(read, code);
    assert_eq!(read.uses_per_code(), Some(2));
    let plain = ten_percent("PLAIN").build().unwrap();
    let plain_written = serde_json::to_string(&plain).unwrap();
    assert_eq!(PromoCode::from_written_json(&plain_written).unwrap(), plain);

    let mut bad: serde_json::Value = serde_json::from_str(&written).unwrap();
    bad["campaign"] = serde_json::json!("not a code!");
    let err = PromoCode::from_written_json(&bad.to_string()).unwrap_err();
    assert_eq!(err.path(), Some("campaign"));
    let mut zero = serde_json::from_str::<serde_json::Value>(&written).unwrap();
    zero["uses_per_code"] = serde_json::json!(0);
    assert_eq!(
        PromoCode::from_written_json(&zero.to_string()).unwrap_err().path(),
        Some("uses_per_code")
    );
    let mut codeless = serde_json::from_str::<serde_json::Value>(&written).unwrap();
    codeless.as_object_mut().unwrap().remove("code");
    assert!(PromoCode::from_written_json(&codeless.to_string()).is_err());
}
