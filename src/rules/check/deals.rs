//! Pricing buy X get Y and tiers: which units are given, which tier is
//! reached, and what is missing when the basket is short.

use std::cmp::Ordering;

use crate::rules::basket::{Basket, Line};
use crate::rules::definition::{AppliesTo, BuyCondition, BuyXGetY, GetOff, PromoCode, Selection, TierBasis, TierFrom};
use crate::rules::quote::{NextTier, TierReached};
use crate::values::Money;

/// Where a line's units may go in a buy-X-get-Y deal.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    /// Only given.
    Get,
    /// Bought or given.
    Both,
    /// Only bought.
    Buy,
}

/// The units of one line a deal may use.
#[derive(Clone, Copy)]
struct Group {
    line: usize,
    role: Role,
    units: u64,
    price: i128,
}

/// The units given: how many of each line, or why none.
pub(super) struct Given {
    /// Per line of the basket: how many of its units are given.
    pub(super) units: Vec<u64>,
}

/// Why a basket is short of a deal's or a tier's first step: a sentence for the buyer.
pub(super) enum Short {
    /// Units are missing (`not_enough_items`).
    Items(String),
    /// Money is missing (`below_minimum`).
    Money(String),
}

/// Sorts `items` by `less`, stably: an insertion sort (a basket has at most
/// 500 lines), far less code in the browser module than the library's sorts.
pub(super) fn sort_by<T>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
    for sorted in 1..items.len() {
        let mut at = sorted;
        while at > 0 && less(&items[at], &items[at - 1]) {
            items.swap(at, at - 1);
            at -= 1;
        }
    }
}

/// `n` items, in words.
fn items(n: u64) -> String {
    if n == 1 {
        "1 more item".to_owned()
    } else {
        format!("{n} more items")
    }
}

/// `from mugs or grinders`, or nothing for every line.
fn from_scope(scope: Option<&AppliesTo>) -> String {
    let Some(scope) = scope else {
        return String::new();
    };
    let names: Vec<&str> = scope
        .categories()
        .iter()
        .map(|c| c.as_str())
        .chain(scope.skus().iter().map(|s| s.as_str()))
        .collect();
    let mut shown = String::from(" from ");
    for (i, name) in names.iter().take(3).enumerate() {
        if i > 0 {
            shown.push_str(" or ");
        }
        shown.push_str(name);
    }
    if names.len() > 3 {
        shown.push_str(&format!(" or {} more", names.len() - 3));
    }
    shown
}

struct Plan<'a> {
    deal: &'a BuyXGetY,
    groups: Vec<Group>,
}

impl Plan<'_> {
    /// Whether `n` applications fit when `taken[i]` units of group `i` are
    /// already given and `r` more are to be given.
    #[inline(never)]
    fn feasible(&self, taken: &[u64], r: u64, n: u64) -> bool {
        let (mut get, mut both, mut buy) = (0_u64, 0_u64, 0_u64);
        for (g, t) in self.groups.iter().zip(taken) {
            let left = g.units - t;
            match g.role {
                Role::Get => get += left,
                Role::Both => both += left,
                Role::Buy => buy += left,
            }
        }
        if get + both < r {
            return false;
        }
        match self.deal.buy() {
            BuyCondition::Quantity(x) => {
                let need = n.saturating_mul(u64::from(x));
                buy + both >= need && get + both + buy >= r.saturating_add(need)
            }
            BuyCondition::Amount(amount) => self
                .spend_left(taken, r)
                // At most 10^7 applications of at most 10^15: far within an i128.
                .is_some_and(|value| value >= amount.minor() * i128::from(n)),
        }
    }

    /// What the units left to buy are worth once `r` more units are given
    /// (the get-only units first, then the cheapest of both: the least spend
    /// lost), or `None` when `r` units cannot be given.
    #[inline(never)]
    fn spend_left(&self, taken: &[u64], r: u64) -> Option<i128> {
        let mut rest = r;
        let mut value: i128 = 0;
        let mut boths: Vec<(i128, u64)> = Vec::new();
        for (g, t) in self.groups.iter().zip(taken) {
            let left = g.units - t;
            match g.role {
                Role::Get => rest = rest.saturating_sub(left),
                Role::Both => boths.push((g.price, left)),
                Role::Buy => {}
            }
            if g.role != Role::Get {
                value += g.price * i128::from(left);
            }
        }
        sort_by(&mut boths, |a, b| a.0 < b.0);
        for (price, left) in boths {
            let used = left.min(rest);
            value -= price * i128::from(used);
            rest -= used;
        }
        (rest == 0).then_some(value)
    }

    /// The most applications the basket holds.
    fn applications(&self) -> u64 {
        let none = vec![0; self.groups.len()];
        let y = u64::from(self.deal.get_quantity());
        let get_units: u64 = self
            .groups
            .iter()
            .filter(|g| g.role != Role::Buy)
            .map(|g| g.units)
            .sum();
        let mut high = get_units / y;
        if let Some(cap) = self.deal.max_applications_cap() {
            high = high.min(u64::from(cap));
        }
        let mut low = 0;
        while low < high {
            let mid = low + (high - low).div_ceil(2);
            if self.feasible(&none, mid * y, mid) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        low
    }

    /// What is missing for one application, in words.
    #[inline(never)]
    fn missing(&self) -> String {
        let deal = self.deal;
        let sum =
            |pick: &dyn Fn(Role) -> bool| -> u64 { self.groups.iter().filter(|g| pick(g.role)).map(|g| g.units).sum() };
        let y = u64::from(deal.get_quantity());
        let gettable = sum(&|r| r != Role::Buy);
        if gettable < y {
            return format!("add {}{}", items(y - gettable), from_scope(deal.get_scope()));
        }
        match deal.buy() {
            BuyCondition::Quantity(x) => {
                let x = u64::from(x);
                let buyable = sum(&|r| r != Role::Get);
                let all = sum(&|_| true);
                let short = x.saturating_sub(buyable).max((x + y).saturating_sub(all)).max(1);
                format!("add {}{}", items(short), from_scope(deal.buy_scope()))
            }
            BuyCondition::Amount(amount) => {
                let none = vec![0; self.groups.len()];
                let left = self.spend_left(&none, y).unwrap_or(0);
                let short = (amount.minor() - left).max(1);
                let missing = Money::from_minor(short, amount.currency()).unwrap_or(amount);
                let on = from_scope(deal.buy_scope());
                let on = on
                    .strip_prefix(" from ")
                    .map(|rest| format!(" on {rest}"))
                    .unwrap_or_default();
                format!("spend {missing} more{on}")
            }
        }
    }
}

impl PromoCode {
    /// The lines a buy-X-get-Y deal may use, as groups.
    #[inline(never)]
    fn deal_groups<'a>(&self, deal: &'a BuyXGetY, basket: &Basket) -> Plan<'a> {
        let within = |line: &Line, scope: Option<&AppliesTo>| scope.is_none_or(|s| s.includes(line));
        let groups = basket
            .lines()
            .iter()
            .enumerate()
            .filter(|(_, line)| within(line, self.applies_to()))
            .filter_map(|(i, line)| {
                let bought = within(line, deal.buy_scope());
                // The get's lines are the buy's unless it names its own.
                let given = match deal.get_scope_written() {
                    None => bought,
                    Some(scope) => scope.includes(line),
                };
                let role = match (bought, given) {
                    (true, true) => Role::Both,
                    (true, false) => Role::Buy,
                    (false, true) => Role::Get,
                    (false, false) => return None,
                };
                Some(Group {
                    line: i,
                    role,
                    units: u64::from(line.quantity()),
                    price: line.unit_price().minor(),
                })
            })
            .collect();
        Plan { deal, groups }
    }

    /// The units a buy-X-get-Y code gives in `basket`, or what is missing
    /// (`None`: no line is one it may use).
    pub(super) fn given(&self, deal: &BuyXGetY, basket: &Basket) -> Result<Given, Option<Short>> {
        let mut plan = self.deal_groups(deal, basket);
        if plan.groups.is_empty() {
            return Err(None);
        }
        let n = plan.applications();
        if n == 0 {
            return Err(Some(Short::Items(plan.missing())));
        }
        // The order the units are given in, which never depends on the order of the lines.
        let lines = basket.lines();
        let order = |a: &Group, b: &Group| -> Ordering {
            let price = match deal.selection_rule() {
                Selection::MostExpensive => b.price.cmp(&a.price),
                _ => a.price.cmp(&b.price),
            };
            price
                .then(a.role.cmp(&b.role))
                .then_with(|| lines[a.line].sku().cmp(lines[b.line].sku()))
                .then(a.line.cmp(&b.line))
        };
        sort_by(&mut plan.groups, |a, b| order(a, b).is_lt());
        let mut taken = vec![0_u64; plan.groups.len()];
        let mut r = n * u64::from(deal.get_quantity());
        for i in 0..plan.groups.len() {
            if r == 0 {
                break;
            }
            if plan.groups[i].role == Role::Buy {
                continue;
            }
            // The most units of this group that still leave enough to buy (most often all it may give).
            let (mut low, mut high) = (0, plan.groups[i].units.min(r));
            taken[i] = high;
            if plan.feasible(&taken, r - high, n) {
                low = high;
            }
            while low < high {
                let mid = low + (high - low).div_ceil(2);
                taken[i] = mid;
                if plan.feasible(&taken, r - mid, n) {
                    low = mid;
                } else {
                    high = mid - 1;
                }
            }
            taken[i] = low;
            r -= low;
        }
        let mut units = vec![0; lines.len()];
        for (g, t) in plan.groups.iter().zip(&taken) {
            units[g.line] += t;
        }
        Ok(Given { units })
    }

    /// What a buy-X-get-Y deal takes off each line for the units `given`:
    /// a percent of the given units' price, rounded per line, or an amount off
    /// each unit, at most its price.
    #[inline(never)]
    pub(super) fn given_off(deal: &BuyXGetY, basket: &Basket, given: &Given) -> Vec<i128> {
        basket
            .lines()
            .iter()
            .zip(&given.units)
            .map(|(line, units)| {
                let units = u32::try_from(*units).unwrap_or(u32::MAX);
                if units == 0 {
                    return 0;
                }
                let price = *line.unit_price();
                match deal.off() {
                    GetOff::Percent(p) => price.checked_mul(units).map_or(0, |v| v.percent_of(p).minor()),
                    GetOff::Amount(a) => a.minor().min(price.minor()) * i128::from(units),
                }
            })
            .collect()
    }

    /// The tier `basket` reaches and the next one, or what is missing for the first.
    #[inline(never)]
    pub(super) fn tier(&self, basket: &Basket, eligible: Money) -> (Option<TierReached>, Option<NextTier>) {
        let Some((by, tiers)) = self.discount().as_tiers() else {
            return (None, None);
        };
        let measure = match by {
            TierBasis::Subtotal => TierFrom::Amount(eligible),
            _ => TierFrom::Quantity(self.eligible_units(basket)),
        };
        let reached = |from: &TierFrom| match (from, &measure) {
            (TierFrom::Amount(f), TierFrom::Amount(m)) => f.partial_cmp_same(m).is_some_and(|o| o.is_le()),
            (TierFrom::Quantity(f), TierFrom::Quantity(m)) => f <= m,
            _ => false,
        };
        let at = tiers.iter().rposition(|t| reached(t.from()));
        let tier = at.map(|index| TierReached {
            index,
            from: *tiers[index].from(),
        });
        let next = at.map_or(0, |i| i + 1);
        let next_tier = tiers.get(next).map(|t| NextTier {
            index: next,
            from: *t.from(),
            missing: match (t.from(), &measure) {
                (TierFrom::Amount(f), TierFrom::Amount(m)) => TierFrom::Amount(f.checked_sub(m).unwrap_or(*f)),
                (TierFrom::Quantity(f), TierFrom::Quantity(m)) => TierFrom::Quantity(f - m),
                (from, _) => *from,
            },
        });
        (tier, next_tier)
    }

    /// Why a tiered code's basket is below its first tier, if it is.
    #[inline(never)]
    pub(super) fn below_first_tier(&self, next: Option<&NextTier>) -> Option<Short> {
        let next = next.filter(|n| n.index == 0)?;
        Some(match next.missing {
            TierFrom::Amount(_) => Short::Money(match (&next.from, self.applies_to()) {
                (from, None) => format!("this code needs a basket of at least {from}"),
                (from, Some(scope)) => format!("this code needs at least {from} of {}", scope.describe()),
            }),
            TierFrom::Quantity(n) => {
                Short::Items(format!("add {}{}", items(u64::from(n)), from_scope(self.applies_to())))
            }
        })
    }

    /// The units of the eligible lines.
    pub(super) fn eligible_units(&self, basket: &Basket) -> u32 {
        basket
            .lines()
            .iter()
            .filter(|l| self.applies_to().is_none_or(|s| s.includes(l)))
            .map(Line::quantity)
            .sum()
    }
}
