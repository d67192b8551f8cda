use super::*;
use crate::wire::EventType::*;
use crate::{Basket, BudgetShort, Campaign, Code, Currency, Discount, IdempotencyKey, Line, Sku, UsageLimits};

fn eur(amount: &str) -> Money {
    Money::parse(amount, Currency::EUR).unwrap()
}

fn now() -> Timestamp {
    "2026-12-06T10:00:00Z".parse().unwrap()
}

fn counts(total: u64, discounted: &str) -> UsageCounts {
    UsageCounts::new(total, 0)
        .unwrap()
        .with_discounted(discounted.parse().unwrap())
        .unwrap()
}

/// 10.00 off each use, under `limits`.
fn ten_off(name: &str, limits: UsageLimits) -> PromoCode {
    PromoCode::builder(Code::parse(name).unwrap(), Discount::fixed(eur("10.00")).unwrap())
        .limits(limits)
        .build()
        .unwrap()
}

fn reservation(code: &PromoCode, basket: &Basket, state: ReservationState, after: UsageCounts) -> Reservation {
    Reservation {
        key: Some(IdempotencyKey::parse("order-1").unwrap()),
        customer: None,
        quote: code.price(basket, now()).unwrap(),
        usage: after,
        state,
        expires_at: None,
        captured_at: None,
        released_at: None,
        reason: None,
        was: None,
        hold_expired_at: None,
        replayed: false,
    }
}

fn types(write: UseWrite, code: &PromoCode, before: UsageCounts, after: UsageCounts) -> Vec<(EventType, Option<u8>)> {
    let state = match write {
        UseWrite::Held => ReservationState::Held,
        UseWrite::Captured => ReservationState::Captured,
        UseWrite::Released => ReservationState::Released,
        UseWrite::Expired => ReservationState::Held,
    };
    let used = reservation(code, &Basket::from(eur("40.00")), state, after);
    events_of(&WriteFacts {
        write,
        definition: code,
        reservation: &used,
        before,
        now: now(),
    })
    .into_iter()
    .map(|e| (e.kind, e.data.threshold))
    .collect()
}

#[test]
fn a_use_on_a_code_without_limits_is_its_one_event() {
    let code = ten_off("FREE", UsageLimits::UNLIMITED);
    let (before, after) = (counts(4, "40"), counts(5, "50"));
    assert_eq!(types(UseWrite::Held, &code, before, after), [(RedemptionHeld, None)]);
    assert_eq!(
        types(UseWrite::Captured, &code, before, after),
        [(RedemptionCaptured, None)]
    );
    assert_eq!(
        types(UseWrite::Released, &code, after, before),
        [(RedemptionReleased, None)]
    );
    assert_eq!(
        types(UseWrite::Expired, &code, after, before),
        [(RedemptionExpired, None)]
    );
}

#[test]
fn each_threshold_fires_once_per_upward_crossing() {
    let limits = UsageLimits::UNLIMITED
        .with_budget(eur("100.00"), BudgetShort::Refuse)
        .unwrap();
    let code = ten_off("BUDGET", limits);
    let capture = |before: &str, after: &str| types(UseWrite::Captured, &code, counts(1, before), counts(2, after));
    assert_eq!(capture("30", "40"), [(RedemptionCaptured, None)]);
    assert_eq!(
        capture("40", "50"),
        [(RedemptionCaptured, None), (BudgetThreshold, Some(50))]
    );
    assert_eq!(
        capture("49.99", "50.00"),
        [(RedemptionCaptured, None), (BudgetThreshold, Some(50))]
    );
    assert_eq!(capture("50", "60"), [(RedemptionCaptured, None)], "at 50 % already");
    assert_eq!(
        capture("45", "85"),
        [
            (RedemptionCaptured, None),
            (BudgetThreshold, Some(50)),
            (BudgetThreshold, Some(80))
        ]
    );
    // Going down never fires; going up again past a line is a new crossing.
    let release = types(UseWrite::Released, &code, counts(2, "85"), counts(1, "75"));
    assert_eq!(release, [(RedemptionReleased, None)]);
    assert_eq!(
        capture("75", "85"),
        [(RedemptionCaptured, None), (BudgetThreshold, Some(80))]
    );
    assert_eq!(
        capture("90", "100"),
        [
            (RedemptionCaptured, None),
            (BudgetThreshold, Some(100)),
            (CodeExhausted, None)
        ]
    );
}

#[test]
fn a_threshold_carries_the_spend_and_the_budget() {
    let limits = UsageLimits::UNLIMITED
        .with_budget(eur("100.00"), BudgetShort::Refuse)
        .unwrap();
    let code = ten_off("SPEND", limits);
    let used = reservation(
        &code,
        &Basket::from(eur("40.00")),
        ReservationState::Held,
        counts(6, "55.00"),
    );
    let events = events_of(&WriteFacts {
        write: UseWrite::Held,
        definition: &code,
        reservation: &used,
        before: counts(5, "45.00"),
        now: now(),
    });
    let body = events[1].to_body().unwrap();
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(json["type"], "budget.threshold");
    assert_eq!(json["timestamp"], "2026-12-06T10:00:00Z");
    assert_eq!(json["data"]["code"], "SPEND");
    assert_eq!(json["data"]["key"], "order-1");
    assert_eq!(json["data"]["threshold"], 50);
    assert_eq!(json["data"]["spent"]["amount"], "55.00");
    assert_eq!(json["data"]["budget"]["amount"], "100.00");
    assert_eq!(json["data"]["usage"]["total"], 6);
    let held: serde_json::Value = serde_json::from_str(&events[0].to_body().unwrap()).unwrap();
    assert_eq!(held["data"]["state"], "held");
    assert_eq!(held["data"]["quote"]["discount"]["amount"], "10.00");
}

#[test]
fn the_use_that_takes_the_last_one_exhausts_the_code_once() {
    let code = ten_off("CAP", UsageLimits::new(Some(3), None).unwrap());
    let used = |before: u64| types(UseWrite::Held, &code, counts(before, "0"), counts(before + 1, "0"));
    assert_eq!(used(1), [(RedemptionHeld, None)]);
    assert_eq!(used(2), [(RedemptionHeld, None), (CodeExhausted, None)]);
    // A capture of a hold does not change the counts: not a second exhaustion.
    let converted = types(UseWrite::Captured, &code, counts(3, "0"), counts(3, "0"));
    assert_eq!(converted, [(RedemptionCaptured, None)]);
}

#[test]
fn a_replay_wrote_nothing_and_causes_nothing() {
    let code = ten_off("CAP", UsageLimits::new(Some(1), None).unwrap());
    let mut used = reservation(
        &code,
        &Basket::from(eur("40.00")),
        ReservationState::Captured,
        counts(1, "10"),
    );
    used.replayed = true;
    let facts = WriteFacts {
        write: UseWrite::Captured,
        definition: &code,
        reservation: &used,
        before: counts(0, "0"),
        now: now(),
    };
    assert!(events_of(&facts).is_empty());
}

#[test]
fn a_campaign_runs_out_apart_from_its_codes() {
    let shared = ten_off("SPRING", UsageLimits::new(Some(4), None).unwrap());
    let campaign = Campaign::new(shared, 2).unwrap();
    let code = campaign.code(Code::parse("SPRING-A").unwrap());
    let through = |total: u64, own: u64| counts(total, "0").with_code_uses(own).unwrap();
    let held = |before: UsageCounts, after: UsageCounts| types(UseWrite::Held, &code, before, after);
    // The code's own second use: the code is done, the campaign is not.
    assert_eq!(
        held(through(1, 1), through(2, 2)),
        [(RedemptionHeld, None), (CodeExhausted, None)]
    );
    // The campaign's last use through a code with one left: both are done.
    assert_eq!(
        held(through(3, 0), through(4, 1)),
        [(RedemptionHeld, None), (CodeExhausted, None), (CampaignExhausted, None)]
    );
    let used = reservation(
        &code,
        &Basket::from(eur("40.00")),
        ReservationState::Held,
        through(2, 1),
    );
    let events = events_of(&WriteFacts {
        write: UseWrite::Held,
        definition: &code,
        reservation: &used,
        before: through(1, 0),
        now: now(),
    });
    let json: serde_json::Value = serde_json::from_str(&events[0].to_body().unwrap()).unwrap();
    assert_eq!(json["data"]["code"], "SPRING-A");
    assert_eq!(json["data"]["campaign"], "SPRING");
}

#[test]
fn a_quote_too_large_for_the_payload_is_left_out() {
    let code = ten_off("MANY", UsageLimits::UNLIMITED);
    let lines = (0..400)
        .map(|i| {
            Line::new(
                Sku::parse(&format!("sku-with-a-long-name-{i:04}")).unwrap(),
                1,
                eur("1.00"),
            )
            .unwrap()
        })
        .collect();
    let basket = Basket::from_lines(lines, None).unwrap();
    let used = reservation(&code, &basket, ReservationState::Captured, counts(1, "10"));
    let events = events_of(&WriteFacts {
        write: UseWrite::Captured,
        definition: &code,
        reservation: &used,
        before: counts(0, "0"),
        now: now(),
    });
    assert!(serde_json::to_string(&events[0]).unwrap().len() > EventPayload::MAX_BYTES);
    let body = events[0].to_body().unwrap();
    assert!(body.len() <= EventPayload::MAX_BYTES, "{} bytes", body.len());
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(json["data"]["quote_omitted"], true);
    assert!(json["data"].get("quote").is_none());
    assert_eq!(json["data"]["usage"]["total"], 1);
}
