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
//! isolate's list (codes added since it was loaded) brings the list up to
//! date, at most once every [`RELOAD_MS`]: the campaign's object numbers its
//! codes as it adds them, and sends only those past the last one the list
//! has (a batch added during a sale costs each isolate that batch, not the
//! campaign's whole list again). A load runs after the answer of the
//! request that began it, which goes on with the catalog's answer: no
//! buyer waits for a list.
//!
//! Memory is bounded: one list loads at a time in an isolate, and the lists
//! hold at most [`CAMPAIGN_INDEX_MAX`] codes in all. A list unused for
//! [`CAMPAIGN_LIST_IDLE_MS`] gives its room to another campaign's; a campaign
//! that does not fit in the room left is not listed (its codes ask the
//! catalog, as before) and is asked again after [`TOO_MANY_MS`]. Each load
//! writes one log line: `{"list":"campaign:<id>","codes":<n>}` (a list
//! brought up to date adds `"added":<n>`, the codes it read), or
//! `{"list":"campaign:<id>","codes":null,"room":<n>}` when it did not fit, or
//! `{"list":"campaign:<id>","codes":null,"failed":true}` when the campaign's
//! object did not answer it (a campaign with no room at all left is not asked).

use std::cell::RefCell;

use promocodes::Code;
use worker::Env;

use crate::clients::call_campaign;
use crate::limits::{CAMPAIGN_INDEX_MAX, CAMPAIGN_LISTS_MAX, CAMPAIGN_LIST_IDLE_MS};
use crate::protocol::{Call, CODES_SEQ_HEADER};

/// The shortest time between two loads of one campaign's list, in milliseconds.
pub const RELOAD_MS: u64 = 10_000;

/// How long a load of a list holds its lease at most, in milliseconds: past
/// it, another list may load even if this one never ended.
pub const LOAD_LEASE_MS: u64 = 30_000;

/// How long a campaign whose codes did not fit waits before its list is asked for again, in milliseconds.
pub const TOO_MANY_MS: u64 = 60_000;

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
            list.push(code);
        }
        list
    }

    /// Adds `code` at the end (the caller keeps the order).
    fn push(&mut self, code: &str) {
        // A list fits in u32 offsets: it is bounded by CAMPAIGN_INDEX_MAX codes of at most 64 bytes.
        self.starts.push(self.joined.len() as u32);
        self.joined.push_str(code);
        self.joined.push('\n');
    }

    /// How many codes it has.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether it has no code.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The list with the codes in `lines` too (one a line, in any order;
    /// blank lines and codes it has are skipped): the two sorted lists
    /// merged, in one pass over each.
    pub fn with_lines(&self, lines: &str) -> CodeList {
        let added = CodeList::from_lines(lines);
        let mut list = CodeList {
            joined: String::with_capacity(self.joined.len() + added.joined.len()),
            starts: Vec::with_capacity(self.len() + added.len()),
        };
        let (mut mine, mut theirs) = (0, 0);
        loop {
            let next = match (self.get(mine), added.get(theirs)) {
                (Some(code), Some(other)) if other < code => {
                    theirs += 1;
                    other
                }
                (Some(code), other) => {
                    mine += 1;
                    theirs += usize::from(other == Some(code));
                    code
                }
                (None, Some(other)) => {
                    theirs += 1;
                    other
                }
                (None, None) => break,
            };
            list.push(next);
        }
        list
    }

    /// The `i`th code, in order, if it has that many.
    fn get(&self, i: usize) -> Option<&str> {
        (i < self.len()).then(|| self.at(i))
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
    /// Its codes as last loaded (`None` before the first load, or when they gave their room up).
    codes: Option<CodeList>,
    /// The `seq` of the last code the campaign had added when `codes` was
    /// loaded ([`crate::protocol::CODES_SEQ_HEADER`]): a load brings the
    /// list up to date from there.
    seq: i64,
    /// When its list may be loaded again at the earliest (Unix milliseconds).
    next_at: u64,
    /// When a code was last found in its list (Unix milliseconds).
    used_at: u64,
}

/// The isolate's lists, and until when the one loading holds its lease.
#[derive(Default)]
struct Lists {
    listed: Vec<Listed>,
    /// While a list loads, the end of its lease (Unix milliseconds; 0: none
    /// loads). A lease, not a flag: a request the runtime cancels is never
    /// dropped, so its load's end may never run; another load may begin once
    /// [`LOAD_LEASE_MS`] has passed.
    loading_until: u64,
    /// The number of the last lease given: a load's end ends only its own.
    lease: u64,
}

thread_local! {
    /// The campaigns whose codes this isolate has looked for, each with its list.
    static LISTS: RefCell<Lists> = RefCell::default();
}

/// The object of the campaign whose loaded list has `code`, if any.
pub fn object_of(code: &Code) -> Option<String> {
    LISTS.with(|lists| {
        let mut lists = lists.borrow_mut();
        let listed = (lists.listed.iter_mut())
            .find(|listed| listed.codes.as_ref().is_some_and(|codes| codes.contains(code.as_str())))?;
        listed.used_at = worker::Date::now().as_millis();
        Some(listed.object.clone())
    })
}

/// Ends the load's lease ([`Lists::loading_until`]) when the load ends, or when its request is dropped half way.
struct Loading(u64);

impl Drop for Loading {
    fn drop(&mut self) {
        LISTS.with(|lists| lists.borrow_mut().end_lease(self.0));
    }
}

/// The catalog named campaign `id` (whose object is `object`) as `code`'s:
/// loads the campaign's list if the isolate has none with `code` in it, no
/// other list is loading, it is due (no sooner than [`RELOAD_MS`] after the
/// last load) and it fits. The load runs after the request's answer
/// ([`crate::background::after_answer`]): the request goes on with the
/// catalog's answer, and only later ones find codes in the list. (In a
/// Durable Object's turn, which has no request's context, it is awaited.)
pub async fn learn(env: &Env, id: &Code, object: &str, code: &Code) {
    let now = worker::Date::now().as_millis();
    let Some(room) = LISTS.with(|lists| lists.borrow_mut().room(object, code.as_str(), now)) else {
        return;
    };
    // Taken in the same turn as the lease (no await between): this load's
    // number, and where the list's codes end (0: it has none, load them all).
    let (loading, after) = LISTS.with(|lists| {
        let lists = lists.borrow();
        (Loading(lists.lease), lists.loaded_through(object))
    });
    let (env, id, object) = (env.clone(), id.clone(), object.to_owned());
    let work = async move {
        let _loading = loading;
        load_and_keep(&env, &id, &object, room, after, now).await;
    };
    if let Err(work) = crate::background::after_answer(work) {
        work.await;
    }
}

/// Loads campaign `id`'s codes past `after` (all of them for 0) into
/// `object`'s list, if they fit in `room`, and logs the load.
async fn load_and_keep(env: &Env, id: &Code, object: &str, room: usize, after: i64, now: u64) {
    match load(env, id, room, after).await {
        // The whole list when it was asked for, or from an object of the version before, which has
        // no `seq`s (it sends every code whatever `after` says, and the next load asks for all again).
        Load::Listed(lines, seq) => match seq.filter(|_| after > 0) {
            None => {
                let codes = CodeList::from_lines(&lines);
                worker::console_log!(r#"{{"list":"{object}","codes":{}}}"#, codes.len());
                LISTS.with(|lists| lists.borrow_mut().keep(object, codes, seq.unwrap_or(0), now));
            }
            Some(seq) => {
                let added = lines.split('\n').filter(|code| !code.is_empty()).count();
                let codes = LISTS.with(|lists| lists.borrow_mut().extend(object, after, &lines, seq, now));
                match codes {
                    Some(codes) => worker::console_log!(r#"{{"list":"{object}","codes":{codes},"added":{added}}}"#),
                    None => worker::console_log!(r#"{{"list":"{object}","codes":null,"added":{added}}}"#),
                }
            }
        },
        Load::TooMany => {
            worker::console_log!(r#"{{"list":"{object}","codes":null,"room":{room}}}"#);
            LISTS.with(|lists| lists.borrow_mut().wait(object, now + TOO_MANY_MS));
        }
        Load::Failed => worker::console_log!(r#"{{"list":"{object}","codes":null,"failed":true}}"#),
    }
}

impl Lists {
    /// Whether `object`'s list should load now for `code`, and if so the
    /// room it may take (at least 1 code), once marked loading and due
    /// again in [`RELOAD_MS`]: not while another list loads, nor before its
    /// `next_at`, nor when its list has `code`. Lists of other campaigns
    /// unused for [`CAMPAIGN_LIST_IDLE_MS`] give their room up first.
    fn room(&mut self, object: &str, code: &str, now: u64) -> Option<usize> {
        if now < self.loading_until {
            return None;
        }
        if !self.listed.iter().any(|listed| listed.object == object) {
            if self.listed.len() >= CAMPAIGN_LISTS_MAX {
                // The places of campaigns not listed and due again: nothing is known of them.
                self.listed
                    .retain(|listed| listed.codes.is_some() || listed.next_at > now);
            }
            if self.listed.len() >= CAMPAIGN_LISTS_MAX {
                return None;
            }
            self.listed.push(Listed {
                object: object.to_owned(),
                codes: None,
                seq: 0,
                next_at: 0,
                used_at: now,
            });
        }
        let mine = self.listed.iter().position(|listed| listed.object == object)?;
        let listed = &self.listed[mine];
        if now < listed.next_at || listed.codes.as_ref().is_some_and(|codes| codes.contains(code)) {
            return None;
        }
        for (i, other) in self.listed.iter_mut().enumerate() {
            if i != mine && now.saturating_sub(other.used_at) >= CAMPAIGN_LIST_IDLE_MS {
                other.codes = None;
            }
        }
        let room = CAMPAIGN_INDEX_MAX.saturating_sub(self.others(object));
        if room == 0 {
            self.listed[mine].next_at = now + TOO_MANY_MS;
            return None;
        }
        self.listed[mine].next_at = now + RELOAD_MS;
        self.loading_until = now + LOAD_LEASE_MS;
        self.lease += 1;
        Some(room)
    }

    /// Ends lease number `lease`, if it is still the last one given (a load
    /// past its lease ends no later load's).
    fn end_lease(&mut self, lease: u64) {
        if self.lease == lease {
            self.loading_until = 0;
        }
    }

    /// How many codes the lists of campaigns other than `object`'s hold.
    fn others(&self, object: &str) -> usize {
        (self.listed.iter())
            .filter(|listed| listed.object != object)
            .filter_map(|listed| listed.codes.as_ref().map(CodeList::len))
            .sum()
    }

    /// Where `object`'s list ends (its [`Listed::seq`]), or 0 when it has none.
    fn loaded_through(&self, object: &str) -> i64 {
        (self.listed.iter())
            .find(|listed| listed.object == object && listed.codes.is_some())
            .map_or(0, |listed| listed.seq)
    }

    /// Keeps `codes` as `object`'s list, loaded at `now` through `seq`, if it still fits.
    fn keep(&mut self, object: &str, codes: CodeList, seq: i64, now: u64) {
        let fits = self.others(object) + codes.len() <= CAMPAIGN_INDEX_MAX;
        if let Some(listed) = self.listed.iter_mut().find(|listed| listed.object == object) {
            listed.codes = fits.then_some(codes);
            listed.seq = seq;
            listed.used_at = now;
        }
    }

    /// Adds `lines`, the codes the campaign added after `after` and through
    /// `seq`, to `object`'s list, if it still ends at `after` (it did not
    /// give its room up, nor load again, while they loaded) and the whole
    /// still fits: the list's length then, or `None` when it has no list.
    fn extend(&mut self, object: &str, after: i64, lines: &str, seq: i64, now: u64) -> Option<usize> {
        let others = self.others(object);
        let listed = self.listed.iter_mut().find(|listed| listed.object == object)?;
        if seq < after {
            // The campaign's numbers went back (its storage restored to an earlier point): what
            // the list has past them is not known to be its any more. The next load reads all.
            listed.codes = None;
            return None;
        }
        if listed.seq != after {
            // Brought up to date meanwhile by a load past its lease: left as it is.
            return listed.codes.as_ref().map(CodeList::len);
        }
        let codes = listed.codes.as_ref()?.with_lines(lines);
        listed.codes = (others + codes.len() <= CAMPAIGN_INDEX_MAX).then_some(codes);
        listed.seq = seq;
        listed.used_at = now;
        listed.codes.as_ref().map(CodeList::len)
    }

    /// Asks for `object`'s list again no sooner than `next_at`.
    fn wait(&mut self, object: &str, next_at: u64) {
        if let Some(listed) = self.listed.iter_mut().find(|listed| listed.object == object) {
            listed.next_at = next_at;
        }
    }
}

/// What a load of a campaign's list came to.
enum Load {
    /// The campaign's codes (past the `after` asked for), one a line, and the `seq` of its last
    /// (`None` from an object of the version before, which sends them all).
    Listed(String, Option<i64>),
    /// It has more codes than the room it was given.
    TooMany,
    /// The campaign's object could not answer (unknown, or an error).
    Failed,
}

/// Campaign `id`'s codes added after `after` (all of them for 0) from its
/// object, if it has at most `max` in all.
async fn load(env: &Env, id: &Code, max: usize, after: i64) -> Load {
    let (max, after) = (max.to_string(), after.to_string());
    let query = [("max", max.as_str()), ("after", after.as_str())];
    let Ok(mut response) = call_campaign(env, id, Call::CodeLines, &query, None, &[]).await else {
        return Load::Failed;
    };
    let seq = response.headers().get(CODES_SEQ_HEADER).ok().flatten();
    match (response.status_code(), seq.and_then(|seq| seq.parse().ok())) {
        (200, seq) => match response.text().await {
            Ok(text) => Load::Listed(text, seq),
            Err(_) => Load::Failed,
        },
        (413, _) => Load::TooMany,
        _ => Load::Failed,
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

    #[test]
    fn codes_added_later_merge_into_the_sorted_list() {
        let list = CodeList::from_lines("B\nD\nF");
        let merged = list.with_lines("E\nA\n\nD\nG\nA");
        assert_eq!(merged, CodeList::from_lines("A\nB\nD\nE\nF\nG"), "sorted, each once");
        for code in ["A", "B", "D", "E", "F", "G"] {
            assert!(merged.contains(code), "{code}");
        }
        assert!(!merged.contains("C"));
        assert_eq!(list.with_lines(""), list, "nothing added");
        assert_eq!(CodeList::default().with_lines("X\nW"), CodeList::from_lines("W\nX"));
        // Interleaved at random: the same as the whole list read at once.
        let all: Vec<String> = (0..3_000).map(|i| format!("K{:05}", (i * 7_919) % 3_000)).collect();
        let (first, later) = all.split_at(1_700);
        let merged = CodeList::from_lines(&first.join("\n")).with_lines(&later.join("\n"));
        assert_eq!(merged, CodeList::from_lines(&all.join("\n")));
    }

    #[test]
    fn a_list_is_brought_up_to_date_only_from_where_it_ends() {
        let mut lists = lists(&[("campaign:A", "A1\nA2", 0)]);
        assert_eq!(lists.loaded_through("campaign:A"), 1);
        assert_eq!(lists.loaded_through("campaign:B"), 0, "no list: load it all");
        assert_eq!(lists.extend("campaign:A", 1, "A4\nA3", 3, 5), Some(4));
        assert!(lists.listed[0].codes.as_ref().is_some_and(|codes| codes.contains("A3")));
        assert_eq!(lists.loaded_through("campaign:A"), 3);
        // A load begun from an older end (the list changed meanwhile) is not added.
        assert_eq!(lists.extend("campaign:A", 1, "A9", 4, 6), Some(4));
        assert!(!lists.listed[0].codes.as_ref().is_some_and(|codes| codes.contains("A9")));
        assert_eq!(lists.loaded_through("campaign:A"), 3);
        // Numbers that went back (a restored campaign): the list is dropped, the next load reads all.
        let mut restored = self::lists(&[("campaign:R", "R1\nR2", 0)]);
        assert_eq!(restored.extend("campaign:R", 1, "", 0, 5), None);
        assert_eq!(restored.loaded_through("campaign:R"), 0);
        assert!(restored.listed[0].codes.is_none());
        // A list that gave its room up meanwhile gets nothing: the next load reads it all.
        lists.listed[0].codes = None;
        assert_eq!(lists.extend("campaign:A", 3, "A5", 5, 7), None);
        assert_eq!(lists.loaded_through("campaign:A"), 0);
    }

    #[test]
    fn a_list_that_outgrows_the_room_gives_it_up() {
        let big: Vec<String> = (0..CAMPAIGN_INDEX_MAX - 1).map(|i| format!("A{i}")).collect();
        let mut lists = lists(&[("campaign:A", &big.join("\n"), 0), ("campaign:B", "B1", 0)]);
        assert_eq!(
            lists.extend("campaign:B", 1, "B2", 2, 5),
            None,
            "B1 and B2 with A's do not fit"
        );
        assert!(lists.listed[1].codes.is_none());
        assert_eq!(lists.loaded_through("campaign:B"), 0);
    }

    fn lists(entries: &[(&str, &str, u64)]) -> Lists {
        let listed = entries
            .iter()
            .map(|(object, lines, used_at)| Listed {
                object: (*object).to_owned(),
                codes: Some(CodeList::from_lines(lines)),
                seq: 1,
                next_at: 0,
                used_at: *used_at,
            })
            .collect();
        Lists {
            listed,
            loading_until: 0,
            lease: 0,
        }
    }

    #[test]
    fn a_list_loads_once_at_a_time_and_not_again_before_reload_ms() {
        let mut lists = Lists::default();
        assert_eq!(lists.room("campaign:A", "A1", 1_000), Some(CAMPAIGN_INDEX_MAX));
        assert_eq!(lists.room("campaign:B", "B1", 1_000), None, "A's list is loading");
        lists.loading_until = 0;
        lists.keep("campaign:A", CodeList::from_lines("A1\nA2"), 2, 1_000);
        assert_eq!(lists.room("campaign:A", "A3", 1_000 + RELOAD_MS - 1), None, "too soon");
        assert_eq!(
            lists.room("campaign:A", "A2", 1_000 + RELOAD_MS),
            None,
            "listed already"
        );
        assert_eq!(
            lists.room("campaign:A", "A3", 1_000 + RELOAD_MS),
            Some(CAMPAIGN_INDEX_MAX),
            "its own list takes no room from itself"
        );
    }

    #[test]
    fn a_list_in_use_keeps_its_room_and_an_idle_one_gives_it_up() {
        let big: Vec<String> = (0..CAMPAIGN_INDEX_MAX - 10).map(|i| format!("A{i}")).collect();
        let mut lists = lists(&[("campaign:A", &big.join("\n"), 0)]);
        // A was used just now: B gets what is left, and a list of more does not fit.
        let now = CAMPAIGN_LIST_IDLE_MS - 1;
        assert_eq!(lists.room("campaign:B", "B1", now), Some(10));
        lists.loading_until = 0;
        lists.keep(
            "campaign:B",
            CodeList::from_lines(&(0..11).map(|i| format!("B{i}\n")).collect::<String>()),
            11,
            now,
        );
        assert!(lists.listed[1].codes.is_none(), "11 codes do not fit in 10");
        assert!(lists.listed[0].codes.is_some(), "A keeps its list");
        // Idle for CAMPAIGN_LIST_IDLE_MS, A's list gives its room up, and C's fits.
        let later = CAMPAIGN_LIST_IDLE_MS;
        assert_eq!(lists.room("campaign:C", "C1", later), Some(CAMPAIGN_INDEX_MAX));
        assert!(lists.listed[0].codes.is_none());
        assert_eq!(
            lists.listed.len(),
            3,
            "every campaign keeps its place: when it may load again"
        );
    }

    #[test]
    fn no_room_waits_too_many_ms() {
        let full: Vec<String> = (0..CAMPAIGN_INDEX_MAX).map(|i| format!("A{i}")).collect();
        let mut lists = lists(&[("campaign:A", &full.join("\n"), 5)]);
        assert_eq!(lists.room("campaign:B", "B1", 10), None, "no room while A is in use");
        assert_eq!(lists.listed[1].next_at, 10 + TOO_MANY_MS);
        assert_eq!(lists.loading_until, 0);
    }

    #[test]
    fn the_places_are_bounded() {
        let mut lists = Lists::default();
        for i in 0..CAMPAIGN_LISTS_MAX {
            assert!(lists.room(&format!("campaign:{i}"), "X", 0).is_some());
            lists.loading_until = 0;
            lists.wait(&format!("campaign:{i}"), 0);
        }
        assert!(
            lists.room("campaign:NEW", "X", 1).is_some(),
            "the places due again make room"
        );
        assert_eq!(lists.listed.len(), 1);
    }

    #[test]
    fn a_load_that_never_ends_blocks_others_only_for_its_lease() {
        let mut lists = Lists::default();
        assert!(lists.room("campaign:A", "A1", 1_000).is_some());
        // Its request was cancelled: nothing ends the lease.
        assert_eq!(lists.room("campaign:B", "B1", 1_000 + LOAD_LEASE_MS - 1), None);
        assert!(lists.room("campaign:B", "B1", 1_000 + LOAD_LEASE_MS).is_some());
    }

    #[test]
    fn a_load_past_its_lease_ends_no_later_load() {
        let mut lists = Lists::default();
        assert!(lists.room("campaign:A", "A1", 0).is_some());
        let first = lists.lease;
        assert!(
            lists.room("campaign:B", "B1", LOAD_LEASE_MS).is_some(),
            "A's lease ran out"
        );
        lists.end_lease(first);
        assert_eq!(lists.room("campaign:C", "C1", LOAD_LEASE_MS + 1), None, "B still loads");
        lists.end_lease(lists.lease);
        assert!(lists.room("campaign:C", "C1", LOAD_LEASE_MS + 1).is_some());
    }
}
