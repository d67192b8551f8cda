//! [`BoundedMap`]: a map in memory that requests can grow, held to a bound
//! stated in its type (a constant of [`crate::limits`]). Past the bound the
//! entry inserted first is evicted: every such map is a cache of what
//! storage holds, so an entry evicted is read again when next needed.

use std::borrow::Borrow;
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// A map of at most `BOUND` entries (at least one): inserting a new key
/// into a full map evicts the oldest key first (first in, first out; an
/// update of a key keeps its place). The entry just inserted is never the
/// one evicted, nor any of the `BOUND - 1` inserted before it.
#[derive(Debug, Clone)]
pub struct BoundedMap<K, V, const BOUND: usize> {
    entries: HashMap<K, V>,
    /// The keys in the order they were inserted: exactly the keys of `entries`.
    order: VecDeque<K>,
}

impl<K, V, const BOUND: usize> Default for BoundedMap<K, V, BOUND> {
    fn default() -> Self {
        BoundedMap {
            entries: HashMap::new(),
            order: VecDeque::new(),
        }
    }
}

impl<K: Eq + Hash + Clone, V, const BOUND: usize> BoundedMap<K, V, BOUND> {
    /// The most entries the map holds.
    pub const BOUND: usize = if BOUND == 0 { 1 } else { BOUND };

    /// The value of `key`, if the map holds it.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.entries.get(key)
    }

    /// The value of `key` to change in place, if the map holds it.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.entries.get_mut(key)
    }

    /// Whether the map holds `key`.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.entries.contains_key(key)
    }

    /// Sets `key` to `value`; a new key in a full map first evicts the oldest.
    pub fn insert(&mut self, key: K, value: V) {
        if let Some(slot) = self.entries.get_mut(&key) {
            *slot = value;
            return;
        }
        while self.entries.len() >= Self::BOUND {
            let Some(oldest) = self.order.pop_front() else { break };
            self.entries.remove(&oldest);
        }
        self.order.push_back(key.clone());
        self.entries.insert(key, value);
    }

    /// Takes `key` out of the map, if it holds it (its place in the order too).
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let value = self.entries.remove(key)?;
        self.order.retain(|k| k.borrow() != key);
        Some(value)
    }

    /// How many entries the map holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map holds nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::BoundedMap;

    #[test]
    fn a_hundred_thousand_distinct_keys_stay_within_the_bound() {
        let mut map: BoundedMap<String, u64, 1000> = BoundedMap::default();
        for i in 0..100_000u64 {
            map.insert(format!("customer-{i}"), i);
            assert!(map.len() <= 1000, "{} entries after {i}", map.len());
            assert_eq!(
                map.get(format!("customer-{i}").as_str()),
                Some(&i),
                "the newest is kept"
            );
        }
        assert_eq!(map.len(), 1000);
        assert_eq!(map.order.len(), 1000, "the order holds exactly the keys");
        assert!(!map.contains_key("customer-98999"), "the oldest are evicted");
        assert!((99_000..100_000).all(|i| map.contains_key(format!("customer-{i}").as_str())));
    }

    #[test]
    fn an_update_keeps_its_place_and_grows_nothing() {
        let mut map: BoundedMap<&str, u64, 2> = BoundedMap::default();
        map.insert("a", 1);
        map.insert("b", 2);
        for n in 0..10 {
            map.insert("a", n);
        }
        assert_eq!(map.len(), 2);
        if let Some(n) = map.get_mut("b") {
            *n += 1;
        }
        assert_eq!(map.get("b"), Some(&3));
        map.insert("c", 4);
        assert_eq!((map.get("a"), map.get("b"), map.get("c")), (None, Some(&3), Some(&4)));
    }

    #[test]
    fn a_removed_key_leaves_the_order_too() {
        let mut map: BoundedMap<&str, u64, 2> = BoundedMap::default();
        map.insert("a", 1);
        map.insert("b", 2);
        assert_eq!(map.remove("a"), Some(1));
        assert_eq!(map.remove("a"), None);
        assert_eq!(map.order.len(), 1, "the order holds exactly the keys");
        // "b" is the oldest now: a third key evicts it, and "a" inserted again stays.
        map.insert("a", 3);
        map.insert("c", 4);
        assert_eq!((map.get("a"), map.get("b"), map.get("c")), (Some(&3), None, Some(&4)));
    }

    #[test]
    fn a_bound_of_zero_holds_one() {
        let mut map: BoundedMap<u8, u8, 0> = BoundedMap::default();
        assert!(map.is_empty());
        map.insert(1, 1);
        map.insert(2, 2);
        assert_eq!((map.len(), map.get(&2)), (1, Some(&2)));
    }
}
