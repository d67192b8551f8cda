//! The isolate's lists of campaigns' codes: which campaign's object a code
//! belongs to, without asking the catalog for each new code.
//!
//! A campaign's codes are drawn or imported, and a code does not name its
//! campaign. A single-use code is new to the isolate at its one capture, so
//! without these lists each of its captures first asks the catalog whose it
//! is: a second object's round trip, which halves a campaign's captures per
//! second under load. Once the catalog has named a code's campaign, the
//! isolate loads that campaign's whole list of codes from the campaign's own
//! object ([`Call::CodeLines`]) and finds the campaign's later codes in it.
//!
//! The lists are exact: a code is in one once the campaign's object has
//! committed it, and a committed code never leaves its campaign (an archived
//! campaign's object refuses it itself, as for a code the isolate remembers
//! in [`crate::clients`]). A code in no list is asked of the catalog as
//! before. A code the catalog names as a campaign's but missing from the
//! isolate's list (codes added since it was loaded) loads the list again, at
//! most once every [`RELOAD_MS`]. The lists hold at most
//! [`CAMPAIGN_INDEX_MAX`] codes in all: a campaign with more is not listed
//! (its codes ask the catalog, as before), and a list that would pass the
//! bound drops the others first. Each load writes one log line,
//! `{"list":"campaign:<id>","codes":<n>}`.

use std::cell::RefCell;

use promocodes::Code;
use worker::Env;

use crate::clients::call_campaign;
use crate::limits::CAMPAIGN_INDEX_MAX;
use crate::protocol::Call;

/// The shortest time between two loads of one campaign's list, in milliseconds.
pub const RELOAD_MS: u64 = 10_000;

/// A campaign's codes, sorted and joined by `'\n'`, with where each starts: a
/// binary search over them, at about one byte a character and four an entry.
#[derive(Debug, Default, PartialEq)]
pub struct CodeList {
    joined: String,
    starts: Vec<u32>,
}

impl CodeList {
    /// The list of the codes in `lines` (one a line, in any order; blank lines are skipped).
    pub fn from_lines(lines: &str) -> CodeList {
        let mut codes: Vec<&str> = lines.split('\n').filter(|code| !code.is_empty()).collect();
        codes.sort_unstable();
        codes.dedup();
        let mut list = CodeList {
            joined: String::with_capacity(lines.len()),
            starts: Vec::with_capacity(codes.len()),
        };
        for code in codes {
            // A list fits in u32 offsets: it is bounded by CAMPAIGN_INDEX_MAX codes of at most 64 bytes.
            list.starts.push(list.joined.len() as u32);
            list.joined.push_str(code);
            list.joined.push('\n');
        }
        list
    }

    /// How many codes it has.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether it has no code.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The `i`th code, in order.
    fn at(&self, i: usize) -> &str {
        let start = self.starts[i] as usize;
        let end = self.starts.get(i + 1).map_or(self.joined.len(), |next| *next as usize);
        &self.joined[start..end - 1]
    }

    /// Whether `code` is one of its codes.
    pub fn contains(&self, code: &str) -> bool {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self.at(middle).cmp(code) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }
}

/// One campaign's place in the isolate's lists.
struct Listed {
    /// The campaign's object ([`crate::clients::campaign_object`]).
    object: String,
    /// Its codes as last loaded (`None` before the first load ends, or when it has too many).
    codes: Option<CodeList>,
    /// When its last load began (Unix milliseconds).
    asked_at: u64,
}

thread_local! {
    /// The campaigns whose codes this isolate has looked for, each with its list.
    static LISTS: RefCell<Vec<Listed>> = const { RefCell::new(Vec::new()) };
}

/// The object of the campaign whose loaded list has `code`, if any.
pub fn object_of(code: &Code) -> Option<String> {
    LISTS.with(|lists| {
        lists
            .borrow()
            .iter()
            .find(|listed| listed.codes.as_ref().is_some_and(|codes| codes.contains(code.as_str())))
            .map(|listed| listed.object.clone())
    })
}

/// The catalog named campaign `id` (whose object is `object`) as `code`'s:
/// loads the campaign's list if the isolate has none with `code` in it and
/// none was asked for in the last [`RELOAD_MS`]. A list that fails to load
/// is asked for again after [`RELOAD_MS`]; the request goes on either way.
pub async fn learn(env: &Env, id: &Code, object: &str, code: &Code) {
    let now = worker::Date::now().as_millis();
    let due = LISTS.with(|lists| {
        let mut lists = lists.borrow_mut();
        match lists.iter_mut().find(|listed| listed.object == object) {
            Some(listed) if now.saturating_sub(listed.asked_at) < RELOAD_MS => false,
            Some(listed) if listed.codes.as_ref().is_some_and(|codes| codes.contains(code.as_str())) => false,
            Some(listed) => {
                listed.asked_at = now;
                true
            }
            None => {
                lists.push(Listed {
                    object: object.to_owned(),
                    codes: None,
                    asked_at: now,
                });
                true
            }
        }
    });
    if !due {
        return;
    }
    let Some(codes) = load(env, id).await else {
        return;
    };
    // One log line a load, for the operator: which campaign's list, how many codes.
    worker::console_log!(r#"{{"list":"{object}","codes":{}}}"#, codes.len());
    LISTS.with(|lists| keep(&mut lists.borrow_mut(), object, codes));
}

/// Campaign `id`'s codes from its object, or `None` when it has more than
/// [`CAMPAIGN_INDEX_MAX`] or the load failed.
async fn load(env: &Env, id: &Code) -> Option<CodeList> {
    let max = CAMPAIGN_INDEX_MAX.to_string();
    let mut response = call_campaign(env, id, Call::CodeLines, &[("max", &max)], None, &[])
        .await
        .ok()?;
    if response.status_code() != 200 {
        return None;
    }
    Some(CodeList::from_lines(&response.text().await.ok()?))
}

/// Keeps `codes` as `object`'s list, first dropping the other lists if all
/// of them together would pass [`CAMPAIGN_INDEX_MAX`].
fn keep(lists: &mut Vec<Listed>, object: &str, codes: CodeList) {
    let others: usize = (lists.iter())
        .filter(|listed| listed.object != object)
        .filter_map(|listed| listed.codes.as_ref().map(CodeList::len))
        .sum();
    if others + codes.len() > CAMPAIGN_INDEX_MAX {
        lists.retain(|listed| listed.object == object);
    }
    if let Some(listed) = lists.iter_mut().find(|listed| listed.object == object) {
        listed.codes = Some(codes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_listed_codes_in_any_order() {
        let list = CodeList::from_lines("SPRING-B\nSPRING-A\n\nSPRING-C\nSPRING-A");
        assert_eq!(list.len(), 3);
        for code in ["SPRING-A", "SPRING-B", "SPRING-C"] {
            assert!(list.contains(code), "{code}");
        }
        for code in [
            "",
            "SPRING",
            "SPRING-",
            "SPRING-AB",
            "SPRING-D",
            "A",
            "Z",
            "SPRING-B\nSPRING-C",
        ] {
            assert!(!list.contains(code), "{code:?}");
        }
    }

    #[test]
    fn an_empty_list_has_nothing() {
        let list = CodeList::from_lines("");
        assert!(list.is_empty());
        assert!(!list.contains("ANY"));
    }

    #[test]
    fn a_large_list_finds_each_of_its_codes() {
        let codes: Vec<String> = (0..5_000).map(|i| format!("C{:05}", (i * 7_919) % 5_000)).collect();
        let list = CodeList::from_lines(&codes.join("\n"));
        assert_eq!(list.len(), 5_000);
        assert!(codes.iter().all(|code| list.contains(code)));
        assert!(!list.contains("C05000") && !list.contains("C0000"));
    }

    fn listed(object: &str, lines: &str) -> Listed {
        Listed {
            object: object.to_owned(),
            codes: Some(CodeList::from_lines(lines)),
            asked_at: 0,
        }
    }

    #[test]
    fn a_list_past_the_bound_drops_the_others() {
        let mut lists = vec![listed("campaign:A", "A1\nA2"), listed("campaign:B", "")];
        keep(&mut lists, "campaign:B", CodeList::from_lines("B1"));
        assert_eq!(lists.len(), 2, "3 codes fit");
        let many: Vec<String> = (0..CAMPAIGN_INDEX_MAX - 1).map(|i| format!("B{i}")).collect();
        keep(&mut lists, "campaign:B", CodeList::from_lines(&many.join("\n")));
        assert_eq!(lists.len(), 1, "A's list is dropped so that B's fits");
        assert_eq!(lists[0].object, "campaign:B");
        assert!(lists[0].codes.as_ref().is_some_and(|codes| codes.contains("B0")));
    }
}
