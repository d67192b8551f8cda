//! The change history of a code's or a campaign's definition: one row per
//! write that changed it, written in that write's own transaction (as its
//! `code.updated` event is).
//!
//! - `changes`: in order (`seq`), the code or campaign it changed
//!   (`subject`), when, the kind of change (the event's `change`), the
//!   fields whose value changed (a JSON array of names), the `ETag` before
//!   (NULL for a new definition) and after, and the operator's note.

use promocodes::events::DefinitionChange;
use promocodes::wire::{ChangeKind, ChangeRecord};

use super::*;

/// The table, created with the schema and by the migration of an older object.
pub(super) const CHANGES_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS changes(seq INTEGER PRIMARY KEY AUTOINCREMENT, subject TEXT NOT NULL, at TEXT NOT NULL,
    change TEXT NOT NULL, fields TEXT NOT NULL, etag_before TEXT, etag_after TEXT NOT NULL, note TEXT);
CREATE INDEX IF NOT EXISTS changes_by_subject ON changes(subject, seq);
";

/// A definition as a change compares it: its JSON (as the `ETag` hashes it)
/// and whether it is archived and active.
#[derive(Debug, Clone)]
pub(super) struct Version {
    json: String,
    archived: bool,
    active: bool,
}

impl Version {
    /// The version of a definition (a code's or a campaign's) serialized as `value`.
    pub(super) fn of(value: &impl Serialize, active: bool, archived: bool) -> worker::Result<Version> {
        Ok(Version {
            json: serde_json::to_string(value).map_err(rust_error)?,
            archived,
            active,
        })
    }

    fn tag(&self) -> String {
        crate::etag::of(&self.json, self.archived)
    }

    /// `(active, archived)`, as [`DefinitionChange::between`] reads it.
    pub(super) fn state(&self) -> (bool, bool) {
        (self.active, self.archived)
    }
}

/// The top-level fields whose value differs between two definitions' JSON,
/// in name order, and `archived` when that changed.
fn changed_fields(before: &Version, after: &Version) -> Vec<String> {
    let object = |json: &str| match serde_json::from_str::<serde_json::Value>(json) {
        Ok(serde_json::Value::Object(fields)) => fields,
        _ => serde_json::Map::new(),
    };
    let (old, new) = (object(&before.json), object(&after.json));
    let mut names: Vec<String> = old
        .keys()
        .chain(new.keys())
        .filter(|name| old.get(*name) != new.get(*name))
        .cloned()
        .collect();
    if before.archived != after.archived {
        names.push("archived".to_owned());
    }
    names.sort();
    names.dedup();
    names
}

#[derive(Deserialize)]
struct ChangeRow {
    seq: i64,
    at: String,
    change: String,
    fields: String,
    etag_before: Option<String>,
    etag_after: String,
    note: Option<String>,
}

impl SqliteRedemptionStore {
    /// Records the change of `subject`'s definition from `before` (`None`:
    /// new) to `after`, with the operator's `note`, inside the write's
    /// transaction; records nothing when the `ETag` stays the same.
    pub(super) fn write_change(
        &self,
        subject: &Code,
        before: Option<&Version>,
        after: &Version,
        note: Option<&str>,
        now: Timestamp,
    ) -> worker::Result<()> {
        let tag_before = before.map(Version::tag);
        let tag_after = after.tag();
        if tag_before.as_deref() == Some(tag_after.as_str()) {
            return Ok(());
        }
        let Some(change) = DefinitionChange::between(before.map(Version::state), after.state()) else {
            return Ok(());
        };
        let fields = before.map(|before| changed_fields(before, after)).unwrap_or_default();
        self.sql.exec(
            "INSERT INTO changes(subject, at, change, fields, etag_before, etag_after, note)
             VALUES (?, ?, ?, ?, ?, ?, ?)",
            vec![
                subject.as_str().into(),
                now.to_string().into(),
                change.as_str().into(),
                serde_json::to_string(&fields).map_err(rust_error)?.into(),
                tag_before.into(),
                tag_after.into(),
                note.map(str::to_owned).into(),
            ],
        )?;
        Ok(())
    }

    /// A page of `subject`'s changes after `after` (a `seq`; 0 for the
    /// first page), oldest first, and whether more follow.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails or a row no longer reads.
    pub fn changes(&self, subject: &Code, after: i64, limit: u32) -> Result<(Vec<ChangeRecord>, bool), StoreError> {
        let rows: Vec<ChangeRow> = self
            .sql
            .exec(
                "SELECT seq, at, change, fields, etag_before, etag_after, note FROM changes
                 WHERE subject = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
                vec![subject.as_str().into(), after.into(), (i64::from(limit) + 1).into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        let more = rows.len() > limit as usize;
        let changes = rows
            .into_iter()
            .take(limit as usize)
            .map(|row| {
                Ok(ChangeRecord {
                    seq: row.seq,
                    at: Timestamp::parse(&row.at).map_err(backend)?,
                    change: serde_json::from_value::<ChangeKind>(serde_json::Value::String(row.change))
                        .map_err(backend)?,
                    fields: serde_json::from_str(&row.fields).map_err(backend)?,
                    etag_before: row.etag_before,
                    etag_after: row.etag_after,
                    note: row.note,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok((changes, more))
    }
}

#[cfg(test)]
mod tests {
    use super::{changed_fields, Version};

    fn version(json: &str, archived: bool) -> Version {
        Version {
            json: json.to_owned(),
            archived,
            active: true,
        }
    }

    #[test]
    fn the_changed_fields_are_named_once_in_order() {
        let before = version(r#"{"code":"A","min":"10","ends_at":null}"#, false);
        let after = version(r#"{"code":"A","min":"20","active":false}"#, true);
        assert_eq!(
            changed_fields(&before, &after),
            ["active", "archived", "ends_at", "min"]
        );
        assert!(changed_fields(&before, &before).is_empty());
    }
}
