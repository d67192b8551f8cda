//! Conformance checks of campaigns: their codes count together, apart from a
//! code of the campaign's name, and hold, convert and release through it.

use super::*;

/// Counts read through campaign `CAMP`: `total` uses of its codes,
/// `per_customer` by the customer, `uses` through the code, EUR 8.00 each.
fn through(total: u64, per_customer: u64, uses: u64) -> UsageCounts {
    usage(total, per_customer).with_code_uses(uses).expect("valid usage")
}

/// A write of campaign `campaign`'s code.
fn campaign_write<'a>(
    campaign: &'a Code,
    code: &'a Code,
    quote: &'a Quote,
    customer: Option<&'a CustomerId>,
    expected: UsageCounts,
    key: Option<&'a IdempotencyKey>,
) -> Redemption<'a> {
    Redemption {
        campaign: Some(campaign),
        ..write(code, quote, customer, expected, key)
    }
}

fn through_at<S: RedemptionStore>(
    store: &S,
    campaign: &Code,
    code: &Code,
    customer: Option<&CustomerId>,
    now: Timestamp,
) -> UsageCounts {
    store
        .uses_through(campaign, code, customer, now)
        .expect("the store answers")
}

/// A campaign's codes share its counts: a use of one code moves the
/// campaign's total, the customer's campaign-wide count and the discount
/// sum read through every other code, and the code's own uses; a write of
/// another code against counts read before it is stale, and so is a write
/// whose code's uses are stale though the campaign's are right.
pub fn a_campaign_counts_its_codes_together_as_one_value<S: RedemptionStore>(store: &S) {
    let campaign = Code::parse("CAMP").expect("valid id");
    let (a, quote_a) = fixture("CAMP-A");
    let (b, quote_b) = fixture("CAMP-B");
    let alice = customer("alice");
    let fresh = through_at(store, &campaign, &b, Some(&alice), at(0));
    assert_eq!(
        fresh,
        through(0, 0, 0),
        "a campaign with no use reads zero, through any code"
    );
    let first = record(
        store,
        &campaign_write(&campaign, &a, &quote_a, Some(&alice), through(0, 0, 0), None),
    )
    .expect("the first use of the campaign lands");
    assert_eq!(
        first.usage,
        through(1, 1, 1),
        "the use counts for the campaign and the code"
    );
    assert_eq!(
        through_at(store, &campaign, &b, Some(&alice), at(0)),
        through(1, 1, 0),
        "another code of the campaign reads the campaign's counts and its own uses"
    );
    assert_eq!(
        record(
            store,
            &campaign_write(&campaign, &b, &quote_b, Some(&alice), fresh, None)
        ),
        None,
        "a write of another code against the counts before that use is stale"
    );
    assert_eq!(
        record(
            store,
            &campaign_write(&campaign, &a, &quote_a, None, through(1, 0, 0), None)
        ),
        None,
        "the right campaign counts with a stale use count of the code are stale"
    );
    assert_eq!(
        through_at(store, &campaign, &a, Some(&alice), at(0)),
        through(1, 1, 1),
        "and the stale writes changed nothing"
    );
    let second = record(
        store,
        &campaign_write(&campaign, &b, &quote_b, None, through(1, 0, 0), None),
    )
    .expect("against the current counts the other code lands");
    assert_eq!(second.usage, through(2, 0, 1));
    assert_eq!(
        through_at(store, &campaign, &a, Some(&alice), at(0)),
        through(2, 1, 1),
        "the campaign counts both codes' uses"
    );
}

/// A campaign's counts are its own: a plain code with the campaign's id,
/// or with the name of one of its codes, counts apart.
pub fn a_campaign_is_apart_from_a_code_of_its_name<S: RedemptionStore>(store: &S) {
    let campaign = Code::parse("APART").expect("valid id");
    let (code, quote) = fixture("APART-1");
    let (plain, plain_quote) = fixture("APART");
    record(
        store,
        &campaign_write(&campaign, &code, &quote, None, through(0, 0, 0), None),
    )
    .expect("lands");
    assert_eq!(
        usage_for(store, &plain, None),
        UsageCounts::ZERO,
        "a plain code named as the campaign is not the campaign"
    );
    record(store, &write(&plain, &plain_quote, None, UsageCounts::ZERO, None))
        .expect("the plain code has its own counts");
    assert_eq!(
        through_at(store, &campaign, &code, None, at(0)),
        through(1, 0, 1),
        "the plain code's use is not the campaign's"
    );
}

/// A hold of a campaign's code counts for the campaign and the code until
/// it expires; its key is the code's; a conversion compares (and a release
/// gives back) the counts through the campaign.
pub fn a_campaign_code_holds_converts_and_releases_through_its_campaign<S: RedemptionStore>(store: &S) {
    let campaign = Code::parse("HOLDS").expect("valid id");
    let (a, quote_a) = fixture("HOLDS-A");
    let (b, quote_b) = fixture("HOLDS-B");
    let dora = customer("dora");
    let (pi, other) = (key("pi_c"), key("pi_d"));
    let hold = Redemption {
        idempotency_key: Some(&pi),
        hold_until: Some(at(60)),
        ..campaign_write(&campaign, &a, &quote_a, Some(&dora), through(0, 0, 0), None)
    };
    let held = record(store, &hold).expect("the hold lands");
    assert_eq!(held.state, ReservationState::Held);
    assert_eq!(
        through_at(store, &campaign, &a, Some(&dora), at(1)),
        through(1, 1, 1),
        "a hold counts for the campaign and its code"
    );
    assert_eq!(
        through_at(store, &campaign, &a, Some(&dora), at(60)),
        through(0, 0, 0).with_discounted(Decimal::ZERO).expect("valid"),
        "until it expires"
    );
    assert!(
        store.reservation(&b, &pi).expect("answers").is_none(),
        "the key is the code's, not the campaign's"
    );
    let checked = through_at(store, &campaign, &a, Some(&dora), at(1));
    let other_hold = Redemption {
        idempotency_key: Some(&pi),
        hold_until: Some(at(60)),
        ..campaign_write(&campaign, &b, &quote_b, None, through(1, 0, 0), None)
    };
    let on_b = record(store, &other_hold).expect("the same key on another code is another use");
    assert!(!on_b.replayed, "a new hold on the other code");
    let bigger = quote_of("HOLDS-A", "100.00");
    let stale = store
        .convert(&Conversion {
            code: &a,
            key: &pi,
            quote: &bigger,
            now: at(1),
            expected: Some(checked),
        })
        .expect("the store answers");
    assert_eq!(stale, None, "another code's use moved the campaign's counts: stale");
    let current = through_at(store, &campaign, &a, Some(&dora), at(1));
    assert_eq!(current, through(2, 1, 1));
    let captured = store
        .convert(&Conversion {
            code: &a,
            key: &pi,
            quote: &bigger,
            now: at(1),
            expected: Some(current),
        })
        .expect("the store answers")
        .expect("against the counts read through the campaign it converts");
    assert_eq!(captured.state, ReservationState::Captured);
    assert_eq!(captured.usage.code_uses(), 1, "the capture counts through the code");
    assert_eq!(captured.usage.total(), 2);
    assert_eq!(captured.usage.discounted(), amount("18.00"));
    let released = release(store, &a, &pi, at(2), Some("refunded")).expect("known");
    assert_eq!(released.was, Some(ReservationState::Captured));
    assert_eq!(
        released.usage,
        through(1, 0, 0),
        "a release gives the use back to the campaign and to the code"
    );
    assert!(
        release(store, &b, &other, at(2), None).is_none(),
        "an unknown key of the code releases nothing"
    );
    release(store, &b, &pi, at(2), None).expect("the other code's hold is released");
    assert_eq!(
        through_at(store, &campaign, &b, Some(&dora), at(2)),
        through(0, 0, 0).with_discounted(Decimal::ZERO).expect("valid"),
        "everything given back"
    );
}
