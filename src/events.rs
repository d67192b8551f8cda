//! The events a write causes, decided once: [`events_of`] takes what a
//! hold, capture, release or expiry wrote (the use, the counts before and
//! after, the definitions whose limits they count against) and returns the
//! payloads the shop's webhook endpoints receive ([`wire::EventPayload`](crate::wire::EventPayload)).
//!
//! A store writes the events it gets back in the same transaction as the
//! use (a transactional outbox), so an event exists exactly when its write
//! committed; sending them is the adapter's. No clock is read: the event's
//! time is the write's `now`.

use rust_decimal::Decimal;

use crate::wire::{EventData, EventPayload, EventType};
use crate::{Code, Money, PromoCode, Reservation, ReservationState, Timestamp, UsageCounts};

/// The budget thresholds `budget.threshold` reports, in percent, crossed upwards.
pub const BUDGET_THRESHOLDS: [u8; 3] = [50, 80, 100];

/// What a write did to a use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum UseWrite {
    /// A hold was recorded.
    Held,
    /// A use was captured (afresh, or a hold converted).
    Captured,
    /// A held or captured use was given back.
    Released,
    /// A hold was marked expired.
    Expired,
}

impl UseWrite {
    fn event(self) -> EventType {
        match self {
            UseWrite::Held => EventType::RedemptionHeld,
            UseWrite::Captured => EventType::RedemptionCaptured,
            UseWrite::Released => EventType::RedemptionReleased,
            UseWrite::Expired => EventType::RedemptionExpired,
        }
    }
}

/// One committed write of a use, as [`events_of`] reads it.
#[derive(Debug, Clone, Copy)]
pub struct WriteFacts<'a> {
    /// What the write did.
    pub write: UseWrite,
    /// The code's definition as the write ran (a campaign's code: [`Campaign::code`](crate::Campaign::code),
    /// whose limits are the campaign's, shared by its codes, beside its own uses per code).
    pub definition: &'a PromoCode,
    /// The use after the write: its key, customer, quote and the counts right after it.
    pub reservation: &'a Reservation,
    /// The counts just before the write, read the same way as the reservation's (through
    /// the campaign for a campaign's code).
    pub before: UsageCounts,
    /// When the write committed: every event's `timestamp`.
    pub now: Timestamp,
}

/// The events a committed write causes, in the order they are sent:
/// `redemption.<what>` first, then `budget.threshold` for each of 50, 80
/// and 100 % of the budget the spend (the discounts of the uses counted,
/// captured and held) crossed upwards, then `code.exhausted` when the code
/// went from a use left (or no cap) to none, then `campaign.exhausted` the
/// same for a campaign's shared limits.
///
/// A replayed reservation (a known key: nothing written) causes none.
/// Since each write is a compare-and-set on the counts, concurrent writes
/// see each other's counts as their `before`, so a threshold is crossed by
/// exactly one of them; a release that goes back below one and a later use
/// that crosses it again is a second crossing and a second event.
///
/// # Example
///
/// ```
/// use promocodes::events::{events_of, UseWrite, WriteFacts};
/// use promocodes::{Basket, BudgetShort, Code, Currency, Discount, Money, PromoCode, Reservation};
/// use promocodes::{ReservationState, Timestamp, UsageCounts, UsageLimits};
///
/// let eur = |amount: &str| Money::parse(amount, Currency::EUR);
/// let limits = UsageLimits::new(Some(10), None)?.with_budget(eur("20.00")?, BudgetShort::Refuse)?;
/// let code = PromoCode::builder(Code::parse("TEN")?, Discount::fixed(eur("10.00")?)?).limits(limits).build()?;
/// let now: Timestamp = "2026-12-06T10:00:00Z".parse()?;
/// let before = UsageCounts::new(1, 0)?.with_discounted("10.00".parse()?)?;
/// let quote = code.quote(None, before, &Basket::from(eur("40.00")?), now)?;
/// let captured = Reservation {
///     key: None, customer: None, quote, usage: UsageCounts::new(2, 0)?.with_discounted("20.00".parse()?)?,
///     state: ReservationState::Captured, expires_at: None, captured_at: Some(now), released_at: None,
///     reason: None, was: None, hold_expired_at: None, replayed: false,
/// };
/// let events = events_of(&WriteFacts {
///     write: UseWrite::Captured, definition: &code, reservation: &captured, before, now,
/// });
/// let types: Vec<_> = events.iter().map(|e| e.kind.as_str()).collect();
/// // 10.00 → 20.00 of 20.00 crosses 80 % and 100 %; no budget is left.
/// assert_eq!(types, ["redemption.captured", "budget.threshold", "budget.threshold", "code.exhausted"]);
/// assert_eq!(events[1].data.threshold, Some(80));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn events_of(facts: &WriteFacts<'_>) -> Vec<EventPayload> {
    let reservation = facts.reservation;
    if reservation.replayed {
        return Vec::new();
    }
    let after = reservation.usage;
    let currency = reservation.quote.discount().currency();
    let base = EventData {
        code: facts.definition.code().as_str().to_owned(),
        campaign: facts.definition.campaign().cloned(),
        key: reservation.key.clone(),
        customer: reservation.customer.clone(),
        usage: Some(after.in_currency(currency)),
        ..EventData::default()
    };
    let event = |kind: EventType, data: EventData| EventPayload {
        kind,
        timestamp: facts.now,
        data,
    };
    let state = match facts.write {
        UseWrite::Expired => ReservationState::Expired,
        _ => reservation.state,
    };
    let mut events = vec![event(
        facts.write.event(),
        EventData {
            state: Some(state),
            quote: Some(reservation.quote.clone()),
            ..base.clone()
        },
    )];
    events.extend(limit_events(
        facts.definition,
        facts.before,
        after,
        facts.now,
        &base,
        EventType::CodeExhausted,
    ));
    if facts.definition.campaign().is_some() {
        // The campaign's shared limits alone: its definition without the uses per code.
        let shared = facts.definition.clone().without_campaign();
        if ran_out(&shared, facts.before, after) {
            events.push(event(EventType::CampaignExhausted, base));
        }
    }
    events
}

/// The events of a code's own limits when its counts went from `before` to
/// `after`: `budget.threshold` for each of 50, 80 and 100 % of the budget
/// crossed upwards, then `code.exhausted` when no use is left. [`events_of`]
/// adds them to a write's; a code spread over shards, whose counts no one
/// write sees whole, has them from the code's object, which reads its
/// shards' totals: then `before` is the totals it read last, and the events
/// name no key or customer (`currency` is the usage's, when the definition
/// has one).
///
/// # Example
///
/// ```
/// use promocodes::events::code_events;
/// use promocodes::{BudgetShort, Code, Currency, Discount, Money, PromoCode, Timestamp, UsageCounts, UsageLimits};
///
/// let eur = |amount: &str| Money::parse(amount, Currency::EUR);
/// let limits = UsageLimits::new(Some(4), None)?.with_budget(eur("20.00")?, BudgetShort::Refuse)?;
/// let code = PromoCode::builder(Code::parse("HOT")?, Discount::fixed(eur("5.00")?)?).limits(limits).build()?;
/// let now: Timestamp = "2026-12-06T10:00:00Z".parse()?;
/// let before = UsageCounts::new(1, 0)?.with_discounted("5.00".parse()?)?;
/// let after = UsageCounts::new(4, 0)?.with_discounted("20.00".parse()?)?;
/// let events = code_events(&code, before, after, now);
/// let types: Vec<_> = events.iter().map(|e| (e.kind.as_str(), e.data.threshold)).collect();
/// assert_eq!(types, [("budget.threshold", Some(50)), ("budget.threshold", Some(80)),
///     ("budget.threshold", Some(100)), ("code.exhausted", None)]);
/// assert!(events.iter().all(|e| e.data.key.is_none()));
/// assert!(code_events(&code, after, after, now).is_empty(), "nothing crossed");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn code_events(
    definition: &PromoCode,
    before: UsageCounts,
    after: UsageCounts,
    now: Timestamp,
) -> Vec<EventPayload> {
    let currency = definition
        .limits()
        .budget()
        .map(Money::currency)
        .or(definition.currency());
    let base = EventData {
        code: definition.code().as_str().to_owned(),
        campaign: definition.campaign().cloned(),
        usage: currency.map(|currency| after.in_currency(currency)),
        ..EventData::default()
    };
    limit_events(definition, before, after, now, &base, EventType::CodeExhausted)
}

/// The events of a campaign's shared limits when its totals went from
/// `before` to `after`: `budget.threshold` for each of 50, 80 and 100 % of
/// the campaign's budget crossed upwards, then `campaign.exhausted` when its
/// shared cap or budget leaves no use. `definition` is any code of the
/// campaign (it carries the campaign's limits); for a code of no campaign
/// there are none. A campaign spread over shards has them from the
/// campaign's object, which reads its shards' totals (no one write sees them
/// whole): like [`code_events`]'s, they name no key or customer, and their
/// `code` is the campaign's id.
///
/// # Example
///
/// ```
/// use promocodes::events::campaign_events;
/// use promocodes::{Campaign, Code, Currency, Discount, Money, PromoCode, Timestamp, UsageCounts, UsageLimits};
///
/// let eur = |amount: &str| Money::parse(amount, Currency::EUR);
/// let limits = UsageLimits::new(Some(4), None)?;
/// let definition = PromoCode::builder(Code::parse("SPRING")?, Discount::fixed(eur("5.00")?)?).limits(limits).build()?;
/// let campaign = Campaign::new(definition, 1)?;
/// let code = campaign.code(Code::parse("SPRING-A")?);
/// let now: Timestamp = "2026-12-06T10:00:00Z".parse()?;
/// let (before, after) = (UsageCounts::new(3, 0)?, UsageCounts::new(4, 0)?);
/// let events = campaign_events(&code, before, after, now);
/// let kinds: Vec<_> = events.iter().map(|e| (e.kind.as_str(), e.data.code.as_str())).collect();
/// assert_eq!(kinds, [("campaign.exhausted", "SPRING")]);
/// assert!(campaign_events(&code, after, after, now).is_empty(), "nothing crossed");
/// assert!(campaign_events(&campaign.definition().clone(), before, after, now).is_empty(), "no campaign's code");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn campaign_events(
    definition: &PromoCode,
    before: UsageCounts,
    after: UsageCounts,
    now: Timestamp,
) -> Vec<EventPayload> {
    let Some(id) = definition.campaign() else {
        return Vec::new();
    };
    // The campaign's shared limits alone: its definition without the uses per code.
    let shared = definition.clone().without_campaign();
    let currency = shared.limits().budget().map(Money::currency).or(shared.currency());
    let base = EventData {
        code: id.as_str().to_owned(),
        campaign: Some(id.clone()),
        usage: currency.map(|currency| after.in_currency(currency)),
        ..EventData::default()
    };
    limit_events(&shared, before, after, now, &base, EventType::CampaignExhausted)
}

/// `code.exhausted` of a campaign's code whose own uses (`uses_per_code`)
/// ran out, as the object of a campaign spread over shards finds it: two
/// customers of one code may reach two shards, so no shard's write sees
/// the code's uses whole, and the campaign's object reads them from its
/// shards. `usage` is what it read (the campaign's total, the code's uses);
/// like [`code_events`]'s, the event names no key or customer. `None` when
/// `definition` is no campaign's code or `usage` leaves it uses.
///
/// # Example
///
/// ```
/// use promocodes::events::code_used_up;
/// use promocodes::{Campaign, Code, Discount, PromoCode, Timestamp, UsageCounts};
///
/// let definition = PromoCode::builder(Code::parse("WINTER")?, Discount::percent("10".parse()?)?).build()?;
/// let code = Campaign::new(definition, 2)?.code(Code::parse("WINTER-A")?);
/// let now: Timestamp = "2026-12-06T10:00:00Z".parse()?;
/// let event = code_used_up(&code, UsageCounts::new(7, 0)?.with_code_uses(2)?, now).expect("used up");
/// assert_eq!((event.kind.as_str(), event.data.code.as_str()), ("code.exhausted", "WINTER-A"));
/// assert!(event.data.key.is_none());
/// assert!(code_used_up(&code, UsageCounts::new(7, 0)?.with_code_uses(1)?, now).is_none(), "a use left");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn code_used_up(definition: &PromoCode, usage: UsageCounts, now: Timestamp) -> Option<EventPayload> {
    let per_code = definition.uses_per_code()?;
    definition.campaign()?;
    if usage.code_uses() < per_code {
        return None;
    }
    let currency = definition
        .limits()
        .budget()
        .map(Money::currency)
        .or(definition.currency());
    Some(EventPayload {
        kind: EventType::CodeExhausted,
        timestamp: now,
        data: EventData {
            code: definition.code().as_str().to_owned(),
            campaign: definition.campaign().cloned(),
            usage: currency.map(|currency| usage.in_currency(currency)),
            ..EventData::default()
        },
    })
}

/// [`code_events`] with the events' common data `base`, and `exhausted`
/// the event of no use left.
fn limit_events(
    definition: &PromoCode,
    before: UsageCounts,
    after: UsageCounts,
    now: Timestamp,
    base: &EventData,
    exhausted: EventType,
) -> Vec<EventPayload> {
    let event = |kind: EventType, data: EventData| EventPayload {
        kind,
        timestamp: now,
        data,
    };
    let mut events = Vec::new();
    // The budget is the campaign's for a campaign's code (its definition carries it).
    if let Some(budget) = definition.limits().budget() {
        for threshold in crossed(budget, before.discounted(), after.discounted()) {
            let spent = Money::new(after.discounted(), budget.currency()).ok();
            events.push(event(
                EventType::BudgetThreshold,
                EventData {
                    threshold: Some(threshold),
                    spent,
                    budget: Some(*budget),
                    ..base.clone()
                },
            ));
        }
    }
    if ran_out(definition, before, after) {
        events.push(event(exhausted, base.clone()));
    }
    events
}

/// The thresholds of `budget` that the spend crossed going from `before` to `after` (upwards only).
fn crossed(budget: &Money, before: Decimal, after: Decimal) -> impl Iterator<Item = u8> {
    let amount = budget.amount();
    BUDGET_THRESHOLDS.into_iter().filter(move |&percent| {
        let line = amount * Decimal::from(percent) / Decimal::ONE_HUNDRED;
        before < line && after >= line
    })
}

/// Whether `definition` had a use left (or no cap) before and none after.
fn ran_out(definition: &PromoCode, before: UsageCounts, after: UsageCounts) -> bool {
    definition.remaining_uses(after) == Some(0) && definition.remaining_uses(before) != Some(0)
}

/// What a definition write changed: `code.updated`'s (or `campaign.updated`'s) `change`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DefinitionChange {
    /// Defined, or its definition replaced.
    Defined,
    /// Switched on (the kill switch).
    SwitchedOn,
    /// Switched off.
    SwitchedOff,
    /// Archived.
    Archived,
    /// Restored from the archive.
    Restored,
}

impl DefinitionChange {
    /// Its JSON name: `defined`, `switched_on`, `switched_off`, `archived`, `restored`.
    pub fn as_str(self) -> &'static str {
        match self {
            DefinitionChange::Defined => "defined",
            DefinitionChange::SwitchedOn => "switched_on",
            DefinitionChange::SwitchedOff => "switched_off",
            DefinitionChange::Archived => "archived",
            DefinitionChange::Restored => "restored",
        }
    }

    /// The change from `before` to `after`, each `(active, archived)`
    /// (`before` is `None` for a new definition), or `None` when a write
    /// changed neither (archiving what is archived).
    ///
    /// # Example
    ///
    /// ```
    /// use promocodes::events::DefinitionChange;
    ///
    /// assert_eq!(DefinitionChange::between(None, (true, false)), Some(DefinitionChange::Defined));
    /// assert_eq!(DefinitionChange::between(Some((true, false)), (false, false)), Some(DefinitionChange::SwitchedOff));
    /// assert_eq!(DefinitionChange::between(Some((true, true)), (true, false)), Some(DefinitionChange::Restored));
    /// assert_eq!(DefinitionChange::between(Some((true, true)), (true, true)), None);
    /// ```
    pub fn between(before: Option<(bool, bool)>, after: (bool, bool)) -> Option<DefinitionChange> {
        let Some((was_active, was_archived)) = before else {
            return Some(DefinitionChange::Defined);
        };
        let (active, archived) = after;
        Some(match (was_archived, archived) {
            (false, true) => DefinitionChange::Archived,
            (true, false) => DefinitionChange::Restored,
            (true, true) => return None,
            (false, false) if was_active != active => {
                if active {
                    DefinitionChange::SwitchedOn
                } else {
                    DefinitionChange::SwitchedOff
                }
            }
            (false, false) => DefinitionChange::Defined,
        })
    }
}

/// The `code.updated` event of a code's definition write (`campaign.updated`
/// when `code` is a campaign's id and `campaign` is true).
pub fn updated_event(code: &Code, campaign: bool, change: DefinitionChange, now: Timestamp) -> EventPayload {
    EventPayload {
        kind: if campaign {
            EventType::CampaignUpdated
        } else {
            EventType::CodeUpdated
        },
        timestamp: now,
        data: EventData {
            code: code.as_str().to_owned(),
            change: Some(change.as_str().to_owned()),
            ..EventData::default()
        },
    }
}

#[cfg(test)]
mod tests;
