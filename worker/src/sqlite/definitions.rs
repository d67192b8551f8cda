//! The code's definition as the object stores it: read, written, archived.

use super::*;

/// A stored definition: the code, whether it is archived, and when it was first defined.
#[derive(Debug, Clone)]
pub struct StoredDefinition {
    /// The definition.
    pub promo: PromoCode,
    /// Archived codes are unknown to buyers; their history stays.
    pub archived: bool,
    /// When it was first defined (RFC 3339), if known.
    pub defined_at: Option<String>,
}

impl SqliteRedemptionStore {
    /// The stored definition of `code`, if any.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails or the stored JSON no longer parses.
    pub fn definition(&self, code: &Code) -> Result<Option<StoredDefinition>, StoreError> {
        let rows: Vec<DefinitionRow> = self
            .sql
            .exec(
                "SELECT json, archived, defined_at FROM definition WHERE code = ?",
                vec![code.as_str().into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        rows.into_iter()
            .next()
            .map(|row| {
                Ok(StoredDefinition {
                    promo: PromoCode::from_json(&row.json).map_err(backend)?,
                    archived: row.archived != 0,
                    defined_at: row.defined_at,
                })
            })
            .transpose()
    }

    /// Stores `promo` as its code's definition, not archived; returns true
    /// when it replaced one (an archived one included: defining it again
    /// restores it with its counts).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn put_definition(&self, promo: &PromoCode, now: Timestamp) -> Result<bool, StoreError> {
        let json = serde_json::to_string(promo).map_err(backend)?;
        let code = promo.code().as_str().to_owned();
        transaction_sync(&self.storage, || {
            let existed = !self
                .sql
                .exec(
                    "SELECT code AS name FROM definition WHERE code = ?",
                    vec![code.clone().into()],
                )?
                .to_array::<NameRow>()?
                .is_empty();
            self.sql.exec(
                "INSERT INTO definition(code, json, archived, defined_at) VALUES (?, ?, 0, ?)
                 ON CONFLICT(code) DO UPDATE SET json = excluded.json, archived = 0",
                vec![code.clone().into(), json.clone().into(), now.to_string().into()],
            )?;
            Ok(existed)
        })
        .map_err(backend)
    }

    /// Marks `code`'s definition archived (or not); returns false when there is none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn set_archived(&self, code: &Code, archived: bool) -> Result<bool, StoreError> {
        transaction_sync(&self.storage, || {
            let known = !self
                .sql
                .exec(
                    "SELECT code AS name FROM definition WHERE code = ?",
                    vec![code.as_str().into()],
                )?
                .to_array::<NameRow>()?
                .is_empty();
            if known {
                self.sql.exec(
                    "UPDATE definition SET archived = ? WHERE code = ?",
                    vec![i64::from(archived).into(), code.as_str().into()],
                )?;
            }
            Ok(known)
        })
        .map_err(backend)
    }
}
