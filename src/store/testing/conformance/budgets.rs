//! Conformance checks of the discount sum: part of the compared value,
//! reserved by holds and given back by releases.

use super::*;

/// The sum of the discounts counted is part of the one value a write
/// compares: the right counts with a stale sum change nothing.
pub fn the_discount_sum_is_part_of_the_compared_value<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("SUMCAS");
    let first = record(store, &write(&code, &quote, None, UsageCounts::ZERO, None)).expect("lands");
    assert_eq!(first.usage.discounted(), amount("8.00"), "a use counts its discount");
    let stale_sum = usage(1, 0).with_discounted(amount("5.00")).expect("valid");
    assert_eq!(
        record(store, &write(&code, &quote, None, stale_sum, None)),
        None,
        "a write against the right counts but a stale discount sum is stale"
    );
    assert_eq!(usage_for(store, &code, None), usage(1, 0), "and changed nothing");
    let second = record(store, &write(&code, &quote, None, usage(1, 0), None)).expect("the current value lands");
    assert_eq!(second.usage, usage(2, 0));
    let small = quote_of("SUMCAS", "10.00");
    let third = record(store, &write(&code, &small, None, usage(2, 0), None)).expect("lands");
    assert_eq!(
        third.usage.discounted(),
        amount("17.00"),
        "the sum adds each use's own discount"
    );
}

/// The total and the customer's count are each compared on their own: a
/// write against the right discount sum but another total, or another count
/// for the customer, is stale (each use moves the sum too, so only such a
/// write tells a store that compares the counts from one that compares the
/// sum alone).
pub fn each_count_is_compared_apart_from_the_discount_sum<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("EACHCAS");
    let alice = customer("alice");
    record(store, &write(&code, &quote, Some(&alice), UsageCounts::ZERO, None)).expect("lands");
    let eight = amount("8.00");
    for (total, mine, what) in [(2, 1, "total"), (1, 0, "customer's count")] {
        let other = UsageCounts::new(total, mine)
            .and_then(|u| u.with_discounted(eight))
            .expect("valid");
        assert_eq!(
            record(store, &write(&code, &quote, Some(&alice), other, None)),
            None,
            "a write against the right discount sum but another {what} is stale"
        );
    }
    assert_eq!(
        usage_for(store, &code, Some(&alice)),
        usage(1, 1),
        "and the stale writes changed nothing"
    );
}

/// A hold reserves its discount until it expires; a release gives it back;
/// a conversion counts the captured quote's discount in place of the hold's.
pub fn holds_reserve_their_discount_and_releases_give_it_back<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("SUMHOLD");
    let (a, b, c) = (key("a"), key("b"), key("c"));
    record(store, &hold_write(&code, &quote, None, UsageCounts::ZERO, &a, at(60))).expect("lands");
    record(store, &hold_write(&code, &quote, None, usage(1, 0), &b, at(30))).expect("lands");
    assert_eq!(
        usage_for(store, &code, None).discounted(),
        amount("16.00"),
        "holds reserve"
    );
    assert_eq!(
        usage_at(store, &code, None, at(30)).discounted(),
        amount("8.00"),
        "an expired hold's discount no longer counts"
    );
    let cheaper = quote_of("SUMHOLD", "50.00");
    let captured = convert(store, &code, &a, &cheaper, at(1)).expect("converts");
    assert_eq!(
        captured.usage.discounted(),
        amount("13.00"),
        "the capture counts its own discount (5.00) with the other hold's 8.00"
    );
    assert_eq!(usage_at(store, &code, None, at(30)).discounted(), amount("5.00"));
    release(store, &code, &b, at(2), None).expect("released");
    assert_eq!(
        usage_at(store, &code, None, at(2)).discounted(),
        amount("5.00"),
        "a release gives a hold's back"
    );
    release(store, &code, &a, at(3), Some("refund")).expect("released");
    assert_eq!(
        usage_at(store, &code, None, at(3)),
        UsageCounts::ZERO,
        "a release gives a capture's back"
    );
    record(store, &write(&code, &quote, None, UsageCounts::ZERO, Some(&c))).expect("the money is there again");
    assert_eq!(usage_at(store, &code, None, at(3)).discounted(), amount("8.00"));
}

/// A conversion that names the counts it was checked against lands only
/// while they are still exactly those.
pub fn a_conversion_with_expected_counts_is_a_compare_and_set<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("SUMCONV");
    let erin = customer("erin");
    let pi = key("pi_e");
    record(
        store,
        &hold_write(&code, &quote, Some(&erin), UsageCounts::ZERO, &pi, at(60)),
    )
    .expect("lands");
    let checked = usage_for(store, &code, Some(&erin));
    record(store, &write(&code, &quote, None, usage(1, 0), None)).expect("another buyer's use lands");
    let bigger = quote_of("SUMCONV", "100.00");
    let stale = store
        .convert(&Conversion {
            code: &code,
            key: &pi,
            quote: &bigger,
            now: at(1),
            expected: Some(checked),
        })
        .expect("the store answers");
    assert_eq!(stale, None, "the counts moved since the check: stale");
    assert_eq!(store.held(&code, at(1)).expect("answers"), 1, "the hold stays");
    assert_eq!(usage_at(store, &code, Some(&erin), at(1)).discounted(), amount("16.00"));
    let current = usage_at(store, &code, Some(&erin), at(1));
    let captured = store
        .convert(&Conversion {
            code: &code,
            key: &pi,
            quote: &bigger,
            now: at(1),
            expected: Some(current),
        })
        .expect("the store answers")
        .expect("against the current counts it converts");
    assert_eq!(captured.state, ReservationState::Captured);
    assert_eq!(captured.usage.discounted(), amount("18.00"));
    assert_eq!(captured.usage.total(), 2);
}
