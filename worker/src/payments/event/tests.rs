//! The event reader's tests: real event shapes, as Stripe documents them.

use super::super::vector::*;
use super::*;
use serde_json::{json, Value};

fn event(kind: &str, object: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "id": "evt_1",
        "object": "event",
        "api_version": "2024-06-20",
        "created": 1_700_000_000,
        "livemode": false,
        "pending_webhooks": 1,
        "request": { "id": null, "idempotency_key": null },
        "type": kind,
        "data": { "object": object }
    }))
    .unwrap()
}

fn intent(status: &str, metadata: Value) -> Value {
    json!({
        "id": "pi_1",
        "object": "payment_intent",
        "amount": 7200,
        "amount_capturable": 0,
        "amount_details": { "tip": {} },
        "amount_received": if status == "succeeded" { 7200 } else { 0 },
        "application": null,
        "automatic_payment_methods": { "enabled": true },
        "canceled_at": null,
        "cancellation_reason": null,
        "capture_method": "automatic",
        "client_secret": "pi_1_secret_x",
        "confirmation_method": "automatic",
        "created": 1_699_999_000,
        "currency": "eur",
        "customer": "cus_1",
        "description": null,
        "last_payment_error": null,
        "latest_charge": "ch_1",
        "livemode": false,
        "metadata": metadata,
        "next_action": null,
        "payment_method": "pm_1",
        "payment_method_types": ["card"],
        "status": status
    })
}

fn charge(amount: i64, amount_refunded: i64, refunded: bool, metadata: Value) -> Value {
    json!({
        "id": "ch_1",
        "object": "charge",
        "amount": amount,
        "amount_captured": amount,
        "amount_refunded": amount_refunded,
        "balance_transaction": "txn_1",
        "captured": true,
        "created": 1_699_999_100,
        "currency": "eur",
        "customer": "cus_1",
        "livemode": false,
        "metadata": metadata,
        "paid": true,
        "payment_intent": "pi_1",
        "payment_method": "pm_1",
        "payment_method_details": { "card": { "brand": "visa", "last4": "4242" }, "type": "card" },
        "refunded": refunded,
        "status": "succeeded"
    })
}

fn parse(kind: &str, object: Value) -> Result<Action, EventError> {
    parse_event(&event(kind, object))
}

#[test]
fn a_succeeded_payment_with_a_code_is_a_capture() {
    let metadata = json!({
        "promo_code": "SUMMER24",
        "customer": "alice",
        "promo_basket": "{\"lines\":[]}",
        "order": "o-17"
    });
    let action = parse("payment_intent.succeeded", intent("succeeded", metadata)).unwrap();
    assert_eq!(
        action,
        Action::Capture {
            event_id: "evt_1".to_owned(),
            payment_intent: "pi_1".to_owned(),
            promo: Promo::Code("SUMMER24".to_owned()),
            customer: Some("alice".to_owned()),
            basket_json: Some("{\"lines\":[]}".to_owned()),
            charged_major: "72.00".to_owned(),
            currency: "EUR".to_owned(),
        }
    );
    assert_eq!(action.event_id(), "evt_1");
}

#[test]
fn the_capture_charges_amount_received_not_amount() {
    let mut object = intent("succeeded", json!({ "promo_code": "SUMMER24" }));
    object["amount_received"] = json!(5000);
    let Action::Capture {
        charged_major,
        customer,
        basket_json,
        ..
    } = parse("payment_intent.succeeded", object).unwrap()
    else {
        panic!("not a capture");
    };
    assert_eq!(charged_major, "50.00");
    assert_eq!((customer, basket_json), (None, None));
}

#[test]
fn the_signature_vector_is_a_capture_too() {
    let Action::Capture {
        promo,
        charged_major,
        currency,
        ..
    } = parse_event(VECTOR_BODY.as_bytes()).unwrap()
    else {
        panic!("not a capture");
    };
    assert_eq!(promo, Promo::Code("SUMMER24".to_owned()));
    assert_eq!((charged_major.as_str(), currency.as_str()), ("72.00", "EUR"));
}

#[test]
fn payments_without_a_code_are_ignored() {
    for metadata in [
        json!({}),
        json!({ "promo_code": "" }),
        json!(null),
        json!({ "order": "o-1" }),
    ] {
        for kind in [
            "payment_intent.succeeded",
            "payment_intent.canceled",
            "payment_intent.payment_failed",
        ] {
            let status = if kind == "payment_intent.succeeded" {
                "succeeded"
            } else {
                "canceled"
            };
            let action = parse(kind, intent(status, metadata.clone())).unwrap();
            assert_eq!(
                action,
                Action::Ignore {
                    event_id: "evt_1".to_owned(),
                    why: "payment_intent pi_1 has no metadata.promo_code or promo_codes; nothing to do for promocodes"
                        .to_owned()
                },
                "{kind} {metadata}"
            );
        }
    }
    let mut no_metadata = intent("succeeded", json!({}));
    no_metadata.as_object_mut().unwrap().remove("metadata");
    assert!(matches!(
        parse("payment_intent.succeeded", no_metadata),
        Ok(Action::Ignore { .. })
    ));
}

#[test]
fn a_capture_in_a_special_currency() {
    let mut object = intent("succeeded", json!({ "promo_code": "X" }));
    object["currency"] = json!("isk");
    object["amount_received"] = json!(990_000);
    let Action::Capture {
        charged_major,
        currency,
        ..
    } = parse("payment_intent.succeeded", object.clone()).unwrap()
    else {
        panic!("not a capture");
    };
    assert_eq!((charged_major.as_str(), currency.as_str()), ("9900", "ISK"));
    object["amount_received"] = json!(990_050);
    assert_eq!(
        parse("payment_intent.succeeded", object),
        Err(EventError::Amount {
            event_id: "evt_1".to_owned(),
            source: AmountError::NotRepresentable {
                minor: 990_050,
                currency: "ISK".to_owned(),
                stripe_places: 2,
                iso_places: 0
            }
        })
    );
}

#[test]
fn a_canceled_payment_releases_with_the_cancellation_reason() {
    let mut object = intent("canceled", json!({ "promo_code": "SUMMER24" }));
    object["cancellation_reason"] = json!("requested_by_customer");
    assert_eq!(
        parse("payment_intent.canceled", object.clone()).unwrap(),
        Action::Release {
            event_id: "evt_1".to_owned(),
            payment_intent: "pi_1".to_owned(),
            promo: Some(Promo::Code("SUMMER24".to_owned())),
            reason: "payment_intent.canceled: requested_by_customer".to_owned(),
            holds_only: true,
        }
    );
    object["cancellation_reason"] = json!(null);
    let Action::Release { reason, .. } = parse("payment_intent.canceled", object).unwrap() else {
        panic!("not a release");
    };
    assert_eq!(reason, "payment_intent.canceled");
}

#[test]
fn a_failed_payment_releases_with_the_decline() {
    let mut object = intent("requires_payment_method", json!({ "promo_code": "SUMMER24" }));
    object["last_payment_error"] = json!({
        "code": "card_declined",
        "decline_code": "insufficient_funds",
        "message": "Your card has insufficient funds.",
        "type": "card_error"
    });
    let Action::Release { reason, promo, .. } = parse("payment_intent.payment_failed", object.clone()).unwrap() else {
        panic!("not a release");
    };
    assert_eq!(
        reason,
        "payment_intent.payment_failed: card_declined (insufficient_funds)"
    );
    assert_eq!(promo, Some(Promo::Code("SUMMER24".to_owned())));
    object["last_payment_error"] = json!({ "code": "expired_card", "type": "card_error" });
    let Action::Release { reason, .. } = parse("payment_intent.payment_failed", object.clone()).unwrap() else {
        panic!("not a release");
    };
    assert_eq!(reason, "payment_intent.payment_failed: expired_card");
    object["last_payment_error"] = json!(null);
    let Action::Release { reason, .. } = parse("payment_intent.payment_failed", object).unwrap() else {
        panic!("not a release");
    };
    assert_eq!(reason, "payment_intent.payment_failed");
}

#[test]
fn a_full_refund_releases_with_the_charge_code() {
    let expected = Action::Release {
        event_id: "evt_1".to_owned(),
        payment_intent: "pi_1".to_owned(),
        promo: Some(Promo::Code("SUMMER24".to_owned())),
        reason: "charge.refunded: charge ch_1 refunded in full".to_owned(),
        holds_only: false,
    };
    let by_flag = charge(7200, 7200, true, json!({ "promo_code": "SUMMER24" }));
    assert_eq!(parse("charge.refunded", by_flag).unwrap(), expected);
    let by_amount = charge(7200, 7200, false, json!({ "promo_code": "SUMMER24" }));
    assert_eq!(parse("charge.refunded", by_amount).unwrap(), expected);
}

#[test]
fn previous_attributes_and_unknown_envelope_fields_are_tolerated() {
    let mut event: Value =
        serde_json::from_slice(&event("charge.refunded", charge(7200, 7200, true, json!({})))).unwrap();
    event["data"]["previous_attributes"] = json!({ "amount_refunded": 0, "refunded": false });
    event["context"] = json!("acct_1");
    let action = parse_event(&serde_json::to_vec(&event).unwrap()).unwrap();
    assert!(matches!(action, Action::Release { promo: None, .. }), "{action:?}");
}

#[test]
fn a_full_refund_without_a_code_on_the_charge_releases_by_payment_intent() {
    let action = parse("charge.refunded", charge(7200, 7200, true, json!({}))).unwrap();
    let Action::Release {
        payment_intent, promo, ..
    } = action
    else {
        panic!("not a release");
    };
    assert_eq!((payment_intent.as_str(), promo), ("pi_1", None));
}

#[test]
fn a_partial_refund_releases_nothing() {
    let action = parse(
        "charge.refunded",
        charge(7200, 400, false, json!({ "promo_code": "SUMMER24" })),
    )
    .unwrap();
    assert_eq!(
        action,
        Action::Ignore {
            event_id: "evt_1".to_owned(),
            why: "partial refund of 4.00 EUR of 72.00 EUR on charge ch_1; nothing released".to_owned(),
        }
    );
}

#[test]
fn a_refunded_charge_without_a_payment_intent_is_ignored() {
    let mut object = charge(7200, 7200, true, json!({ "promo_code": "SUMMER24" }));
    object["payment_intent"] = json!(null);
    let Action::Ignore { why, .. } = parse("charge.refunded", object).unwrap() else {
        panic!("not ignored");
    };
    assert_eq!(
        why,
        "charge ch_1 has no payment_intent; promocodes captures from PaymentIntents only"
    );
}

#[test]
fn other_event_types_are_ignored() {
    for kind in [
        "payment_intent.created",
        "charge.succeeded",
        "charge.refund.updated",
        "customer.created",
    ] {
        let action = parse(kind, json!({ "id": "x", "object": "whatever" })).unwrap();
        assert_eq!(
            action,
            Action::Ignore {
                event_id: "evt_1".to_owned(),
                why: format!("event type {kind} is not one promocodes acts on"),
            }
        );
    }
    // An unhandled type needs no data at all.
    let bare = parse_event(br#"{"id":"evt_2","type":"ping"}"#).unwrap();
    assert_eq!(bare.event_id(), "evt_2");
}

#[test]
fn a_body_that_is_not_an_event_is_malformed() {
    for body in [
        &b"not json"[..],
        b"",
        b"[]",
        b"{}",
        br#"{"id":"evt_1"}"#,
        br#"{"type":"charge.refunded"}"#,
        br#"{"id":7,"type":"charge.refunded"}"#,
        br#"{"id":"ch_1","object":"charge","type":"charge.refunded"}"#,
        b"{\"id\":\"evt_\xff\",\"type\":\"ping\"}",
    ] {
        assert!(
            matches!(parse_event(body), Err(EventError::Malformed { .. })),
            "{}",
            String::from_utf8_lossy(body)
        );
    }
}

fn invalid_detail(result: Result<Action, EventError>) -> String {
    match result {
        Err(EventError::InvalidObject { detail, .. }) => detail,
        other => panic!("expected InvalidObject, got {other:?}"),
    }
}

#[test]
fn a_handled_event_with_an_unusable_object_is_invalid() {
    let mut no_amount = intent("succeeded", json!({ "promo_code": "X" }));
    no_amount.as_object_mut().unwrap().remove("amount_received");
    assert!(invalid_detail(parse("payment_intent.succeeded", no_amount)).contains("amount_received"));

    let mut null_currency = intent("succeeded", json!({ "promo_code": "X" }));
    null_currency["currency"] = json!(null);
    invalid_detail(parse("payment_intent.succeeded", null_currency));

    let fractional = {
        let mut object = intent("succeeded", json!({ "promo_code": "X" }));
        object["amount_received"] = json!(72.5);
        object
    };
    invalid_detail(parse("payment_intent.succeeded", fractional));

    let mut no_refunded_amount = charge(7200, 7200, true, json!({}));
    no_refunded_amount.as_object_mut().unwrap().remove("amount_refunded");
    assert!(invalid_detail(parse("charge.refunded", no_refunded_amount)).contains("amount_refunded"));

    let wrong_kind = parse("payment_intent.succeeded", charge(7200, 0, false, json!({})));
    assert_eq!(invalid_detail(wrong_kind), "it is a charge, not a payment_intent");

    let number_metadata = intent("canceled", json!({ "promo_code": 17 }));
    invalid_detail(parse("payment_intent.canceled", number_metadata));

    let no_data = parse_event(br#"{"id":"evt_3","object":"event","type":"charge.refunded"}"#);
    assert_eq!(
        no_data,
        Err(EventError::InvalidObject {
            event_id: "evt_3".to_owned(),
            event_type: "charge.refunded".to_owned(),
            detail: "the event has no data.object".to_owned(),
        })
    );
}

#[test]
fn event_errors_read_as_sentences() {
    let err = parse_event(br#"{"id":"evt_3","object":"event","type":"charge.refunded"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Stripe event evt_3 (charge.refunded) has an unusable data.object: the event has no data.object"
    );
    let amount = EventError::Amount {
        event_id: "evt_4".to_owned(),
        source: AmountError::UnknownCurrency { code: "XYZ".to_owned() },
    };
    assert_eq!(
        amount.to_string(),
        "Stripe event evt_4 has an unusable amount: XYZ is not an ISO 4217 currency with minor units that \
         promocodes knows"
    );
    assert!(std::error::Error::source(&amount).is_some());
}

#[test]
fn the_handled_types_are_the_ones_parse_event_acts_on() {
    for kind in HANDLED_EVENT_TYPES {
        let object = if kind.starts_with("charge.") {
            charge(7200, 7200, true, json!({ "promo_code": "X" }))
        } else {
            intent("succeeded", json!({ "promo_code": "X" }))
        };
        let action = parse(kind, object).unwrap();
        assert!(!matches!(action, Action::Ignore { .. }), "{kind}: {action:?}");
    }
}

fn stack(codes: &[&str]) -> Promo {
    Promo::Stack(codes.iter().map(|c| promocodes::Code::parse(c).unwrap()).collect())
}

#[test]
fn promo_codes_name_a_stack_in_every_payment_event() {
    let metadata = json!({ "promo_codes": "mugs20, SAVE10 ,SHIPFREE", "promo_basket": "{}" });
    let Action::Capture { promo, .. } =
        parse("payment_intent.succeeded", intent("succeeded", metadata.clone())).unwrap()
    else {
        panic!("not a capture");
    };
    assert_eq!(promo, stack(&["MUGS20", "SAVE10", "SHIPFREE"]));
    for (kind, status) in [
        ("payment_intent.canceled", "canceled"),
        ("payment_intent.payment_failed", "requires_payment_method"),
    ] {
        let Action::Release { promo, holds_only, .. } = parse(kind, intent(status, metadata.clone())).unwrap() else {
            panic!("not a release");
        };
        assert_eq!(
            (promo, holds_only),
            (Some(stack(&["MUGS20", "SAVE10", "SHIPFREE"])), true)
        );
    }
    let refund = parse(
        "charge.refunded",
        charge(7200, 7200, true, json!({ "promo_codes": "A,B" })),
    )
    .unwrap();
    assert!(
        matches!(refund, Action::Release { promo: Some(Promo::Stack(ref c)), holds_only: false, .. } if c.len() == 2),
        "{refund:?}"
    );
    // A stack of one is a stack.
    let one = parse(
        "payment_intent.succeeded",
        intent("succeeded", json!({ "promo_codes": "A" })),
    )
    .unwrap();
    assert!(
        matches!(one, Action::Capture { promo: Promo::Stack(ref c), .. } if c.len() == 1),
        "{one:?}"
    );
}

#[test]
fn malformed_promo_codes_and_both_keys_are_ignored_with_the_reason() {
    let cases = [
        (json!({ "promo_codes": "A,,B" }), "metadata.promo_codes \"A,,B\" has an empty item (at 1)"),
        (json!({ "promo_codes": "A, " }), "metadata.promo_codes \"A, \" has an empty item (at 1)"),
        (json!({ "promo_codes": "A,b,B" }), "metadata.promo_codes lists B twice; a basket takes each code once"),
        (json!({ "promo_codes": "A,B,C,D,E,F" }), "metadata.promo_codes names 6 codes; a basket takes at most 5"),
        (
            json!({ "promo_codes": "A,B C" }),
            "metadata.promo_codes: \"B C\" is not a promo code (promo code contains ' ' at position 1; only A-Z, 0-9, '_' and '-' are allowed)",
        ),
        (
            json!({ "promo_code": "A", "promo_codes": "B,C" }),
            "metadata has both promo_code and promo_codes; name one code in promo_code or several in promo_codes, not both",
        ),
    ];
    for (metadata, why) in cases {
        for (kind, status) in [
            ("payment_intent.succeeded", "succeeded"),
            ("payment_intent.canceled", "canceled"),
        ] {
            assert_eq!(
                parse(kind, intent(status, metadata.clone())).unwrap(),
                Action::Ignore {
                    event_id: "evt_1".to_owned(),
                    why: why.to_owned()
                },
                "{kind} {metadata}"
            );
        }
        // A refund's metadata is only a hint: a malformed one is none, and the payment index decides.
        let refund = parse("charge.refunded", charge(7200, 7200, true, metadata.clone())).unwrap();
        assert!(matches!(refund, Action::Release { promo: None, .. }), "{refund:?}");
    }
    // An empty promo_codes is absent: the promo_code alone counts.
    let plain = parse(
        "payment_intent.succeeded",
        intent("succeeded", json!({ "promo_code": "A", "promo_codes": "" })),
    )
    .unwrap();
    assert!(
        matches!(
            plain,
            Action::Capture {
                promo: Promo::Code(_),
                ..
            }
        ),
        "{plain:?}"
    );
}
