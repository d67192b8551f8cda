//! A code's or a campaign's change history: every write that changed its
//! definition (`GET /v1/codes/{code}/changes`, `GET /v1/campaigns/{id}/changes`).
//! See [the module](super).

use serde::{Deserialize, Serialize};

use crate::{Code, Timestamp};

/// One page of the changes of a code's or a campaign's definition, oldest first.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct ChangeList {
    /// The code, or the campaign's id.
    pub code: Code,
    /// Its changes on this page.
    pub changes: Vec<ChangeRecord>,
    /// The `after` of the next page (a `seq`, as text), or null on the last.
    pub next: Option<String>,
}

/// One write that changed a definition: a `PUT`, the switch (`PATCH`), an
/// archive (`DELETE`) or a restore (a `PUT` of an archived one). A write that
/// left the definition as it was (the same `ETag`) records none.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct ChangeRecord {
    /// Its position in the history (the pagination cursor).
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub seq: i64,
    /// When it was written.
    pub at: Timestamp,
    /// What kind of change, as the `code.updated` event names it.
    pub change: ChangeKind,
    /// The definition's fields whose value changed (`archived` when it was
    /// archived or restored), in name order; empty for a new definition.
    pub fields: Vec<String>,
    /// The `ETag` before, or null for a new definition.
    pub etag_before: Option<String>,
    /// The `ETag` after.
    pub etag_after: String,
    /// The operator's note (the request's `X-Change-Note`), if it sent one.
    pub note: Option<String>,
}

/// The kind of a [`ChangeRecord`], as the `code.updated` event's `change` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// Defined, or its definition replaced.
    Defined,
    /// Switched on.
    SwitchedOn,
    /// Switched off.
    SwitchedOff,
    /// Archived.
    Archived,
    /// Restored from the archive.
    Restored,
}
