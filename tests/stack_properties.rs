//! A stack's quote is what its capture records (issue 32, item 4): random
//! stacks of codes that share campaigns, budgets and caps, quoted on the
//! counts a store reports, then captured code by code on the in-memory
//! store as the Worker does (each part's basket from
//! [`StackQuote::baskets_applied_to`], under the request's key).
// Native only: proptest is a native dev-dependency, and `wasm-pack test` builds every test target.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{customer, key, start};
use promocodes::{
    capture, from_json, hold, Basket, Campaign, CaptureOptions, Currency, CustomerId, Decimal, HoldOptions,
    IdempotencyKey, InMemoryRedemptionStore, Money, PromoCode, Quote, RedemptionError, RedemptionStore, Stack,
    StackQuote, UsageCounts,
};
use proptest::prelude::*;
use serde_json::{json, Value};

/// One definition's random parts: its discount, scope and limits.
#[derive(Debug, Clone)]
struct Spec {
    /// 0: percent, 1: fixed, 2: free shipping; 3 and up the same, for mugs only.
    kind: u8,
    /// Hundredths of a percent.
    percent: i64,
    /// Cents.
    fixed: i64,
    total: Option<u64>,
    per_customer: Option<u64>,
    /// Cents, and whether a short budget takes a partial discount.
    budget: Option<(i64, bool)>,
}

fn eur(cents: i64) -> Value {
    json!({"amount": Decimal::new(cents, 2).to_string(), "currency": "EUR"})
}

impl Spec {
    fn definition(&self, name: &str) -> PromoCode {
        let discount = match self.kind % 3 {
            0 => json!({"kind": "percent", "percent": Decimal::new(self.percent, 2).to_string()}),
            1 => json!({"kind": "fixed", "amount": eur(self.fixed)}),
            _ => json!({"kind": "free_shipping"}),
        };
        let mut limits = json!({});
        if let Some(total) = self.total {
            limits["total"] = json!(total);
        }
        if let Some(per_customer) = self.per_customer {
            limits["per_customer"] = json!(per_customer);
        }
        if let Some((budget, partial)) = self.budget {
            limits["budget"] = eur(budget);
            limits["when_budget_short"] = json!(if partial { "partial" } else { "refuse" });
        }
        let mut definition = json!({"code": name, "discount": discount, "limits": limits,
            "combines_with": ["product", "order", "shipping"]});
        if self.kind >= 3 {
            definition["applies_to"] = json!({"categories": ["mugs"]});
        }
        from_json(&definition.to_string()).expect("a valid definition")
    }
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        0_u8..6,
        1_i64..=10_000,
        1_i64..=5_000,
        proptest::option::of(1_u64..=4),
        proptest::option::weighted(0.3, 1_u64..=3),
        proptest::option::weighted(0.6, (1_i64..=2_500, any::<bool>())),
    )
        .prop_map(|(kind, percent, fixed, total, per_customer, budget)| Spec {
            kind,
            percent,
            fixed,
            total,
            per_customer,
            budget,
        })
}

/// Every code a stack may list: three codes of each campaign, then the plain codes.
fn pool(campaigns: &[(Spec, u64)], plain: &[Spec]) -> Vec<PromoCode> {
    let mut codes = Vec::new();
    for (i, (spec, uses_per_code)) in campaigns.iter().enumerate() {
        let campaign = Campaign::new(spec.definition(&format!("K{i}")), *uses_per_code).expect("a valid campaign");
        for letter in ["A", "B", "C"] {
            codes.push(campaign.code(common::code(&format!("K{i}-{letter}"))));
        }
    }
    for (j, spec) in plain.iter().enumerate() {
        codes.push(spec.definition(&format!("P{j}")));
    }
    codes
}

/// A basket of lines (some in `mugs`) in EUR, with or without shipping.
fn basket() -> impl Strategy<Value = Basket> {
    (
        proptest::collection::vec((1_u32..=3, 0_i64..=4_000, any::<bool>()), 1..=4),
        proptest::option::of(0_i64..=900),
    )
        .prop_map(|(lines, shipping)| {
            let lines: Vec<Value> = lines
                .into_iter()
                .enumerate()
                .map(|(i, (quantity, price, mug))| {
                    let mut line = json!({"sku": format!("L{i}"), "quantity": quantity, "unit_price": eur(price)});
                    if mug {
                        line["categories"] = json!(["mugs"]);
                    }
                    line
                })
                .collect();
            let mut basket = json!({"lines": lines});
            if let Some(shipping) = shipping {
                basket["shipping"] = eur(shipping);
            }
            from_json(&basket.to_string()).expect("a valid basket")
        })
}

/// A stack's world: campaigns (a definition and its `uses_per_code`),
/// plain codes, earlier captures, the stack's picks, who asks, the basket.
#[derive(Debug, Clone)]
struct World {
    campaigns: Vec<(Spec, u64)>,
    plain: Vec<Spec>,
    /// Each: which code (modulo the pool), by alice (else bob), of a basket of this many cents.
    history: Vec<(u8, bool, i64)>,
    /// Which codes (modulo the pool) the stack lists, repeats dropped.
    picks: Vec<u8>,
    named: bool,
    basket: Basket,
}

/// 1 to 3 campaigns and 0 to 2 plain codes; up to 4 earlier captures of
/// any of them (by the customer or someone else); a stack of 1 to 5
/// distinct codes, most of them of the campaigns; a customer or none.
fn world() -> impl Strategy<Value = World> {
    (
        proptest::collection::vec((spec(), 1_u64..=2), 1..=3),
        proptest::collection::vec(spec(), 0..=2),
        proptest::collection::vec((any::<u8>(), any::<bool>(), 100_i64..=6_000), 0..=4),
        proptest::collection::vec(any::<u8>(), 1..=5),
        proptest::bool::weighted(0.8),
        basket(),
    )
        .prop_map(|(campaigns, plain, history, picks, named, basket)| World {
            campaigns,
            plain,
            history,
            picks,
            named,
            basket,
        })
}

/// A store with the world's history, the stack's codes as listed, who asks.
struct Case {
    store: InMemoryRedemptionStore,
    codes: Vec<PromoCode>,
    customer: Option<CustomerId>,
    basket: Basket,
}

impl Case {
    fn of(world: &World) -> Case {
        let pool = pool(&world.campaigns, &world.plain);
        let store = InMemoryRedemptionStore::new();
        for (i, &(pick, by_alice, cents)) in world.history.iter().enumerate() {
            let promo = &pool[usize::from(pick) % pool.len()];
            let buyer = customer(if by_alice { "alice" } else { "bob" });
            let total = Basket::from(Money::new(Decimal::new(cents, 2), Currency::EUR).expect("an amount"));
            let earlier = key(&format!("earlier-{i}"));
            let options = CaptureOptions::new().idempotency_key(&earlier);
            // Refused or not: either way it is the history the stack meets.
            let _ = capture(promo, &store, Some(&buyer), &total, start(), options);
        }
        let mut codes: Vec<PromoCode> = Vec::new();
        for &pick in &world.picks {
            let promo = &pool[usize::from(pick) % pool.len()];
            if !codes.iter().any(|c| c.code() == promo.code()) {
                codes.push(promo.clone());
            }
        }
        Case {
            store,
            codes,
            customer: world.named.then(|| customer("alice")),
            basket: world.basket.clone(),
        }
    }
}

/// What the store says about each code, as listed.
fn usage(case: &Case) -> Vec<UsageCounts> {
    case.codes
        .iter()
        .map(|promo| {
            case.store
                .usage_of(promo, case.customer.as_ref(), start())
                .expect("the store answers")
        })
        .collect()
}

/// A code that takes the shipping off (or nothing): applied after every
/// other code, its basket is what the codes before it left.
fn tail() -> PromoCode {
    from_json(
        &json!({"code": "ZTAIL", "discount": {"kind": "free_shipping"},
                "combines_with": ["product", "order", "shipping"]})
        .to_string(),
    )
    .expect("a valid definition")
}

/// Captures the quote's parts one after another as the Worker does, each
/// with the basket it applied to, and checks each records its part exactly.
/// `order[k]` is the position in `case.codes` of the `k`-th part's code
/// (`None`: a part not to capture).
fn capture_parts(case: &Case, quote: &StackQuote, order: &[Option<usize>]) -> Result<(), TestCaseError> {
    let stack_key = key("stack");
    let baskets = quote.baskets_applied_to(&case.basket);
    for ((part, basket), i) in quote.codes().iter().zip(&baskets).zip(order) {
        let Some(promo) = i.map(|i| &case.codes[i]) else {
            continue;
        };
        prop_assert_eq!(promo.code(), part.code());
        let options = CaptureOptions::new().idempotency_key(&stack_key);
        match capture(promo, &case.store, case.customer.as_ref(), basket, start(), options) {
            Ok(receipt) => {
                prop_assert!(!receipt.replayed);
                prop_assert_eq!(
                    &receipt.quote,
                    part.quote(),
                    "{} records what its part quoted",
                    part.code()
                );
            }
            Err(err) => prop_assert!(
                false,
                "{} was quoted {} but its capture failed: {err}",
                part.code(),
                part.discount()
            ),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn a_stacks_capture_records_exactly_its_quote(world in world()) {
        let case = Case::of(&world);
        let usage = usage(&case);
        let stack = Stack::new(case.codes.clone()).expect("distinct codes");
        let order = stack.application_order();
        let now = start();
        let refused = match stack.quote(case.customer.as_ref(), &usage, &case.basket, now) {
            Ok(quote) => {
                let order: Vec<Option<usize>> = order.into_iter().map(Some).collect();
                return capture_parts(&case, &quote, &order);
            }
            Err(refused) => refused,
        };
        // The codes applied before the first that refused capture as quoted; then that one refuses.
        let first = &refused.refusals()[0];
        let at = order.iter().position(|&i| case.codes[i].code() == first.code()).expect("a listed code");
        let mut before: Vec<usize> = order[..at].to_vec();
        before.sort_unstable();
        let mut codes: Vec<PromoCode> = before.iter().map(|&i| case.codes[i].clone()).collect();
        codes.push(tail());
        let mut counts: Vec<UsageCounts> = before.iter().map(|&i| usage[i]).collect();
        counts.push(UsageCounts::ZERO);
        let prefix = Stack::new(codes).expect("distinct codes");
        let quote = prefix.quote(case.customer.as_ref(), &counts, &case.basket, now);
        prop_assert!(quote.is_ok(), "the codes before {} quote alone: {:?}", first.code(), quote.err());
        let quote = quote.unwrap();
        let prefix_order: Vec<Option<usize>> = prefix.application_order().iter().map(|&j| before.get(j).copied()).collect();
        capture_parts(&case, &quote, &prefix_order)?;
        let left = quote.baskets_applied_to(&case.basket).pop().expect("the tail's basket");
        let stack_key = key("stack");
        let options = CaptureOptions::new().idempotency_key(&stack_key);
        let refused_code = &case.codes[order[at]];
        let counted = case.store.usage_of(refused_code, case.customer.as_ref(), now).expect("the store answers");
        match capture(refused_code, &case.store, case.customer.as_ref(), &left, now, options) {
            Err(RedemptionError::Rejected(rejected)) => prop_assert_eq!(rejected.rejection(), first.rejection()),
            other => prop_assert!(false, "{} was refused ({:?}) but its capture answered {other:?}", first.code(), first.rejection()),
        }
        // Refused, so nothing recorded: the counts as they were, and nothing under the key.
        let after = case.store.usage_of(refused_code, case.customer.as_ref(), now).expect("the store answers");
        prop_assert_eq!(after, counted, "{}'s counts moved on a refusal", first.code());
        let kept = case.store.reservation(refused_code.code(), &stack_key).expect("the store answers");
        prop_assert!(kept.is_none(), "{} recorded a use under the key on a refusal", first.code());
    }
}

/// Each code's use under the stack's key that counts now (held or
/// captured), as its object answers it for a retry ([`Stack::resume`]).
fn recorded(case: &Case, stack_key: &IdempotencyKey) -> Vec<Option<Quote>> {
    case.codes
        .iter()
        .map(|promo| {
            let own = case
                .store
                .reservation(promo.code(), stack_key)
                .expect("the store answers");
            own.filter(|own| own.counts_at(start())).map(|own| own.quote)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// A stack held code by code, then captured under the same key, converts
    /// each hold to exactly its part; a capture that died after `done` codes
    /// finishes on its retry with the same parts (the first ones replayed).
    #[test]
    fn a_keyed_stack_is_quoted_again_as_it_first_was(world in world(), held in any::<bool>(), done in 0_usize..5) {
        let case = Case::of(&world);
        let stack_key = key("stack");
        let stack = Stack::new(case.codes.clone()).expect("distinct codes");
        let order = stack.application_order();
        let now = start();
        let Ok(first) = stack.quote(case.customer.as_ref(), &usage(&case), &case.basket, now) else {
            return Ok(());
        };
        let baskets = first.baskets_applied_to(&case.basket);
        let done = if held { first.codes().len() } else { done % (first.codes().len() + 1) };
        for ((part, basket), &i) in first.codes().iter().zip(&baskets).zip(&order).take(done) {
            let promo = &case.codes[i];
            let customer = case.customer.as_ref();
            let recorded = if held {
                hold(promo, &case.store, customer, basket, now, &stack_key, HoldOptions::new()).map(|h| h.quote)
            } else {
                capture(promo, &case.store, customer, basket, now, CaptureOptions::new().idempotency_key(&stack_key)).map(|r| r.quote)
            };
            prop_assert_eq!(recorded.as_ref().ok(), Some(part.quote()), "{}'s first write", part.code());
        }
        // The capture (or the retry): each code's use under the key as it is, the rest priced on
        // the counts the store reports now.
        let again = stack.resume(case.customer.as_ref(), &usage(&case), &recorded(&case, &stack_key), &case.basket, now);
        prop_assert_eq!(again.as_ref().ok(), Some(&first), "quoted again as at first: {:?}", again.as_ref().err());
        for (k, ((part, basket), &i)) in first.codes().iter().zip(&baskets).zip(&order).enumerate() {
            let options = CaptureOptions::new().idempotency_key(&stack_key);
            let captured = capture(&case.codes[i], &case.store, case.customer.as_ref(), basket, now, options);
            match captured {
                Ok(receipt) => {
                    prop_assert_eq!(&receipt.quote, part.quote(), "{} records its part", part.code());
                    prop_assert_eq!(receipt.replayed, !held && k < done, "{} replays only a capture done before", part.code());
                }
                Err(err) => prop_assert!(false, "{} was quoted {} but its capture failed: {err}", part.code(), part.discount()),
            }
        }
    }
}

/// The example: two codes of one campaign (50% off, a budget of EUR
/// 12.00 taken in part) on EUR 20.00 were quoted 10.00 + 5.00 and captured
/// 10.00 + 2.00. The second code's part is what the budget has left after
/// the first's.
#[test]
fn two_codes_of_one_budget_are_quoted_what_their_captures_record() {
    let world = World {
        campaigns: vec![(
            Spec {
                kind: 0,
                percent: 5_000,
                fixed: 1,
                total: None,
                per_customer: None,
                budget: Some((1_200, true)),
            },
            1,
        )],
        plain: vec![],
        history: vec![],
        picks: vec![0, 1],
        named: false,
        basket: Basket::from(Money::new(Decimal::new(2_000, 2), Currency::EUR).unwrap()),
    };
    let case = Case::of(&world);
    let stack = Stack::new(case.codes.clone()).unwrap();
    let quote = stack.quote(None, &usage(&case), &case.basket, start()).unwrap();
    let parts: Vec<String> = quote.codes().iter().map(|p| p.discount().to_string()).collect();
    assert_eq!(parts, ["EUR 10.00", "EUR 2.00"]);
    assert!(quote.codes()[1].quote().budget_clipped());
    assert_eq!(quote.payable().to_string(), "EUR 8.00");
    capture_parts(&case, &quote, &[Some(0), Some(1)]).unwrap();
}
