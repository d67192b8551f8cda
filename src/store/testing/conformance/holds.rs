//! Conformance checks of holds: they count until they expire, convert once
//! and are released once.

use super::*;

/// A hold counts, overall and for its customer, up to the nanosecond before
/// its `expires_at` and not from that instant on, with nothing cleaning it up.
pub fn holds_count_until_the_instant_they_expire<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("HOLDS");
    let alice = customer("alice");
    let expires = at(60);
    let just_before = expires.checked_add_nanos(-1).expect("in range");
    let held = record(
        store,
        &hold_write(&code, &quote, Some(&alice), UsageCounts::ZERO, &key("h1"), expires),
    )
    .expect("a hold against (0, 0) lands");
    assert_eq!(held.state, ReservationState::Held);
    assert_eq!(held.expires_at, Some(expires));
    assert_eq!(held.usage, usage(1, 1), "a hold counts from the moment it is written");

    assert_eq!(
        usage_at(store, &code, Some(&alice), just_before),
        usage(1, 1),
        "1 ns before expiry it counts"
    );
    assert_eq!(store.held(&code, just_before).expect("answers"), 1);
    assert_eq!(
        usage_at(store, &code, Some(&alice), expires),
        UsageCounts::ZERO,
        "at expires_at it no longer counts"
    );
    assert_eq!(store.held(&code, expires).expect("answers"), 0);

    let stale = record(
        store,
        &Redemption {
            campaign: None,
            now: just_before,
            ..write(&code, &quote, None, UsageCounts::ZERO, None)
        },
    );
    assert_eq!(stale, None, "before expiry the hold is part of the expected counts");
    let after = record(
        store,
        &Redemption {
            campaign: None,
            now: expires,
            ..write(&code, &quote, None, UsageCounts::ZERO, None)
        },
    )
    .expect("at expiry the counts without the hold are the ones to compare");
    assert_eq!(after.usage, usage(1, 0));
    assert_eq!(
        usage_at(store, &code, None, just_before),
        usage(2, 0),
        "reads take their own now"
    );
}

/// A hold's key replays the hold; a capture under the key of an expired hold
/// replays it too, unless it names that hold: then it is a new capture at the
/// counts of the moment, the key names it, and the hold is kept.
pub fn a_hold_key_replays_and_an_expired_one_is_captured_afresh<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("HOLDKEY");
    let bob = customer("bob");
    let pi = key("pi_1");
    let expires = at(30);
    record(
        store,
        &hold_write(&code, &quote, Some(&bob), UsageCounts::ZERO, &pi, expires),
    )
    .expect("lands");
    let again = record(store, &hold_write(&code, &quote, Some(&bob), usage(1, 1), &pi, at(90))).expect("answered");
    assert!(again.replayed, "a hold under a known key is a replay");
    assert_eq!(again.expires_at, Some(expires), "a replay keeps the first expiry");
    let early_capture = record(store, &write(&code, &quote, Some(&bob), usage(1, 1), Some(&pi))).expect("answered");
    assert!(
        early_capture.replayed,
        "a record under an active hold's key writes nothing"
    );
    assert_eq!(usage_for(store, &code, Some(&bob)), usage(1, 1));

    let stale = Redemption {
        campaign: None,
        now: expires,
        after_expired_hold: Some(expires),
        ..write(&code, &quote, Some(&bob), usage(1, 1), Some(&pi))
    };
    assert!(
        record(store, &stale).is_none(),
        "a capture under an expired hold's key is compared like any other write"
    );
    assert_eq!(
        usage_at(store, &code, Some(&bob), at(29)),
        usage(1, 1),
        "a refused write changed nothing: the hold still counts before its expiry"
    );
    assert_eq!(
        store
            .reservation(&code, &pi)
            .expect("answers")
            .expect("known")
            .state_at(at(29)),
        ReservationState::Held
    );

    let unnamed = Redemption {
        campaign: None,
        now: expires,
        ..write(&code, &quote, Some(&bob), UsageCounts::ZERO, Some(&pi))
    };
    let answered = record(store, &unnamed).expect("answered");
    assert!(
        answered.replayed && answered.state_at(expires) == ReservationState::Expired,
        "a capture that does not name the expired hold is answered with it and writes nothing"
    );
    assert_eq!(usage_at(store, &code, Some(&bob), expires), UsageCounts::ZERO);
    let other_hold = Redemption {
        campaign: None,
        after_expired_hold: Some(at(31)),
        ..unnamed
    };
    assert!(
        record(store, &other_hold).expect("answered").replayed,
        "naming another expiry than the hold's writes nothing"
    );

    let later = Redemption {
        campaign: None,
        after_expired_hold: Some(expires),
        ..unnamed
    };
    let fresh = record(store, &later).expect("the expired hold's key captures afresh");
    assert!(!fresh.replayed);
    assert_eq!(fresh.state, ReservationState::Captured);
    assert_eq!(fresh.usage, usage(1, 1));
    assert_eq!(
        fresh.hold_expired_at,
        Some(expires),
        "the capture names the hold it follows"
    );
    let found = store.reservation(&code, &pi).expect("answers").expect("known");
    assert_eq!(found.state, ReservationState::Captured, "the key now names the capture");
    assert_eq!(found.hold_expired_at, Some(expires));
    let replay = record(store, &later).expect("answered");
    assert!(replay.replayed, "and a retry replays it");
    assert_eq!(usage_at(store, &code, Some(&bob), at(3600)), usage(1, 1));
}

/// Converting an active hold captures it without moving the counts; again is a replay.
pub fn conversion_captures_an_active_hold_once<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("CONVERT");
    let (_, other_quote) = fixture("CONVERT");
    let carol = customer("carol");
    let pi = key("pi_c");
    let expires = at(60);
    record(
        store,
        &hold_write(&code, &quote, Some(&carol), UsageCounts::ZERO, &pi, expires),
    )
    .expect("lands");
    let just_before = expires.checked_add_nanos(-1).expect("in range");
    let captured = convert(store, &code, &pi, &other_quote, just_before).expect("an active hold converts");
    assert!(!captured.replayed);
    assert_eq!(captured.state, ReservationState::Captured);
    assert_eq!(captured.captured_at, Some(just_before));
    assert_eq!(captured.usage, usage(1, 1), "conversion does not move the counts");
    assert_eq!(
        store.held(&code, at(0)).expect("answers"),
        0,
        "a converted hold is no longer a hold"
    );
    assert_eq!(
        usage_at(store, &code, Some(&carol), at(7200)),
        usage(1, 1),
        "a capture does not expire"
    );

    let again = convert(store, &code, &pi, &quote, at(1)).expect("answered");
    assert!(again.replayed, "converting again replays");
    assert_eq!(again.state, ReservationState::Captured);
    assert_eq!(usage_for(store, &code, Some(&carol)), usage(1, 1));
}

/// An expired hold, or an unknown key, does not convert.
pub fn conversion_refuses_an_expired_or_unknown_hold<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("LATE");
    let pi = key("pi_late");
    record(store, &hold_write(&code, &quote, None, UsageCounts::ZERO, &pi, at(10))).expect("lands");
    assert_eq!(
        convert(store, &code, &pi, &quote, at(10)),
        None,
        "at expires_at the hold is gone"
    );
    assert_eq!(
        convert(store, &code, &key("pi_none"), &quote, at(0)),
        None,
        "unknown key"
    );
    assert_eq!(usage_at(store, &code, None, at(10)), UsageCounts::ZERO);
}

/// Release gives a hold or a capture back once; again replays; an unknown key is `None`.
pub fn release_gives_back_holds_and_captures_once<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("RELEASE");
    let dan = customer("dan");
    let (h, c, e) = (key("hold"), key("capture"), key("expired"));
    record(
        store,
        &hold_write(&code, &quote, Some(&dan), UsageCounts::ZERO, &h, at(60)),
    )
    .expect("lands");
    record(store, &write(&code, &quote, Some(&dan), usage(1, 1), Some(&c))).expect("lands");
    record(store, &hold_write(&code, &quote, None, usage(2, 0), &e, at(5))).expect("lands");
    assert_eq!(usage_for(store, &code, Some(&dan)), usage(3, 2));

    let released = release(store, &code, &h, at(1), Some("checkout abandoned")).expect("known key");
    assert!(!released.replayed);
    assert_eq!(released.state, ReservationState::Released);
    assert_eq!(released.was, Some(ReservationState::Held));
    assert_eq!(released.released_at, Some(at(1)));
    assert_eq!(released.reason.as_deref(), Some("checkout abandoned"));
    assert_eq!(released.usage, usage(2, 1), "the counts after the release");
    let again = release(store, &code, &h, at(2), Some("another reason")).expect("known key");
    assert!(again.replayed, "releasing again is a replay");
    assert_eq!(
        again.released_at,
        Some(at(1)),
        "a replay answers as the first release did"
    );
    assert_eq!(again.reason.as_deref(), Some("checkout abandoned"));
    assert_eq!(again.usage, released.usage);

    let refunded = release(store, &code, &c, at(3), None).expect("known key");
    assert_eq!(refunded.was, Some(ReservationState::Captured));
    assert_eq!(refunded.usage, usage(1, 0));
    assert_eq!(usage_at(store, &code, Some(&dan), at(3)), usage(1, 0));

    let late = release(store, &code, &e, at(6), None).expect("known key");
    assert_eq!(
        late.was,
        Some(ReservationState::Held),
        "an expired hold is released as a hold"
    );
    assert_eq!(
        late.usage,
        UsageCounts::ZERO,
        "it no longer counted, so nothing else moves"
    );
    assert_eq!(release(store, &code, &key("never"), at(0), None), None, "unknown key");
    assert_eq!(
        convert(store, &code, &h, &quote, at(2)).map(|r| (r.replayed, r.state)),
        Some((true, ReservationState::Released)),
        "a released hold does not convert; its key replays as released"
    );
    let retried = record(store, &write(&code, &quote, Some(&dan), usage(0, 0), Some(&c))).expect("answered");
    assert!(
        retried.replayed && retried.state == ReservationState::Released,
        "a released capture never spends again"
    );
    assert_eq!(usage_at(store, &code, Some(&dan), at(6)), UsageCounts::ZERO);
}

/// A release and a capture of one hold, in either order: the counts match the records.
pub fn release_and_capture_racing_leave_counts_that_match_the_records<S: RedemptionStore>(store: &S) {
    let (code, quote) = fixture("RACE");
    let eve = customer("eve");
    let (first, second) = (key("release-first"), key("capture-first"));
    record(
        store,
        &hold_write(&code, &quote, Some(&eve), UsageCounts::ZERO, &first, at(60)),
    )
    .expect("lands");
    record(
        store,
        &hold_write(&code, &quote, Some(&eve), usage(1, 1), &second, at(60)),
    )
    .expect("lands");

    // The release lands between the capture's read (an active hold) and its write.
    release(store, &code, &first, at(1), Some("cancelled")).expect("known");
    let lost = convert(store, &code, &first, &quote, at(1)).expect("answered");
    assert!(
        lost.replayed && lost.state == ReservationState::Released,
        "the capture sees the release"
    );

    // The capture lands between the release's read and its write.
    convert(store, &code, &second, &quote, at(1)).expect("converts");
    let refunded = release(store, &code, &second, at(2), Some("refunded")).expect("known");
    assert_eq!(
        refunded.was,
        Some(ReservationState::Captured),
        "the release gives the capture back"
    );

    assert_eq!(usage_at(store, &code, Some(&eve), at(2)), UsageCounts::ZERO);
    assert_eq!(store.held(&code, at(2)).expect("answers"), 0);
}
