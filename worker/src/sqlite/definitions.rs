//! The code's definition as the object stores it: read, written, archived.

use super::changes::Version;
use super::*;
use crate::limits::CODE_LINES_PAGE;

/// A stored campaign: its definition, whether it is archived, and when it was first defined.
#[derive(Debug, Clone)]
pub struct StoredCampaign {
    /// The campaign.
    pub campaign: Campaign,
    /// Archived campaigns' codes are unknown to buyers; their history stays.
    pub archived: bool,
    /// When it was first defined (RFC 3339), if known.
    pub defined_at: Option<String>,
}

/// One of a campaign's codes in a listing: its position, its captured uses, its active holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CampaignCode {
    /// Its position in the order codes were added (the pagination cursor).
    pub seq: i64,
    /// The code.
    pub code: String,
    /// Its captured uses.
    pub uses: i64,
    /// Its holds that count now.
    pub held: i64,
}

#[derive(Deserialize)]
struct CampaignRow {
    id: String,
    json: String,
    archived: i64,
    defined_at: Option<String>,
}

#[derive(Deserialize)]
struct BatchRow {
    answer: String,
    committed: i64,
    #[serde(default)]
    request: Option<String>,
}

/// A call that added codes to a campaign, kept under its idempotency key.
#[derive(Debug, Clone)]
pub struct CodeBatch {
    /// Its answer (`{"campaign", "created", "codes"}`), as JSON text.
    pub answer: String,
    /// Whether its codes are in the campaign (else the catalog was not told yet).
    pub committed: bool,
    /// The request it answers, as it was sent.
    pub request: Option<String>,
}

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
        if let Some(row) = rows.into_iter().next() {
            return Ok(Some(StoredDefinition {
                promo: PromoCode::from_json(&row.json).map_err(backend)?,
                archived: row.archived != 0,
                defined_at: row.defined_at,
            }));
        }
        match self.campaign()? {
            Some(stored) => self.code_of(&stored, code),
            None => Ok(None),
        }
    }

    /// `code`'s definition if it is one of the codes of `stored`, the
    /// campaign this object keeps: the campaign's definition, with the code
    /// and the campaign (one indexed read of the code).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn code_of(&self, stored: &StoredCampaign, code: &Code) -> Result<Option<StoredDefinition>, StoreError> {
        if !self.has_campaign_code(code)? {
            return Ok(None);
        }
        Ok(Some(StoredDefinition {
            promo: stored.campaign.code(code.clone()),
            archived: stored.archived,
            defined_at: stored.defined_at.clone(),
        }))
    }

    /// The campaign this object keeps, if it keeps one.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails or the stored JSON no longer parses.
    pub fn campaign(&self) -> Result<Option<StoredCampaign>, StoreError> {
        let rows: Vec<CampaignRow> = self
            .sql
            .exec("SELECT id, json, archived, defined_at FROM campaign LIMIT 1", None)
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        rows.into_iter()
            .next()
            .map(|row| {
                let id = Code::parse(&row.id).map_err(backend)?;
                Ok(StoredCampaign {
                    campaign: Campaign::from_json(id, &row.json).map_err(backend)?,
                    archived: row.archived != 0,
                    defined_at: row.defined_at,
                })
            })
            .transpose()
    }

    /// Stores campaign `id`'s definition (`json`, as given), not archived,
    /// and its change with the operator's `note`; returns true when it replaced one.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn put_campaign(
        &self,
        id: &Code,
        json: &str,
        note: Option<&str>,
        now: Timestamp,
        also: impl FnOnce() -> worker::Result<()>,
    ) -> Result<bool, StoreError> {
        self.forget_subject();
        let after = Campaign::from_json(id.clone(), json).map_err(backend)?;
        let stored = self.campaign()?.filter(|stored| stored.campaign.id() == id);
        let version = stored
            .as_ref()
            .map(|s| Version::of(&s.campaign, s.campaign.definition().active(), s.archived))
            .transpose()
            .map_err(backend)?;
        let after_version = Version::of(&after, after.definition().active(), false).map_err(backend)?;
        let before = stored.map(|stored| (stored.campaign.definition().active(), stored.archived));
        self.commit(|| {
            self.write_change(id, version.as_ref(), &after_version, note, now)?;
            let existed = before.is_some();
            self.sql.exec(
                "INSERT INTO campaign(id, json, archived, defined_at) VALUES (?, ?, 0, ?)
                 ON CONFLICT(id) DO UPDATE SET json = excluded.json, archived = 0",
                vec![id.as_str().into(), json.into(), now.to_string().into()],
            )?;
            self.write_update(id, true, before, (after.definition().active(), false), now)?;
            also()?;
            Ok(existed)
        })
        .map_err(backend)
    }

    /// Whether `code` is one of this object's campaign's codes.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn has_campaign_code(&self, code: &Code) -> Result<bool, StoreError> {
        let rows: Vec<NameRow> = self
            .sql
            .exec(
                "SELECT code AS name FROM campaign_codes WHERE code = ?",
                vec![code.as_str().into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        Ok(!rows.is_empty())
    }

    /// The campaign's first code, if it has any: a sharded campaign's object
    /// reads its shards' totals through it (any code reads the campaign's).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn first_campaign_code(&self) -> Result<Option<Code>, StoreError> {
        let rows: Vec<NameRow> = self
            .sql
            .exec("SELECT code AS name FROM campaign_codes ORDER BY seq LIMIT 1", None)
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        rows.into_iter()
            .next()
            .map(|row| Code::parse(&row.name).map_err(backend))
            .transpose()
    }

    /// The campaign's codes one a line, and the `seq` of the last code it
    /// added (0 without codes): what the Worker's isolate finds codes in
    /// ([`crate::campaign_index`]). With `after` 0, every code, in code
    /// order, each page after the last code of the one before (along the
    /// codes' unique index: no sort, and the isolate's sort of sorted
    /// lines has nothing to do); with a `seq` an earlier answer gave, only
    /// the codes added since, in the order they were added (along the
    /// table's key). A code is never removed from a campaign, so its `seq`s
    /// only grow and the codes past a `seq` are exactly those added since.
    /// Both read [`CODE_LINES_PAGE`] codes a statement, so that no value
    /// SQLite makes passes its 2 MB limit on Cloudflare (a code has at most
    /// 64 characters).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when a read fails.
    pub fn campaign_code_lines(&self, after: i64) -> Result<(String, i64), StoreError> {
        let last: Vec<CountRow> = self
            .sql
            .exec("SELECT coalesce(max(seq), 0) AS n FROM campaign_codes", None)
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        let last = last.first().map_or(0, |row| row.n);
        if after >= last {
            return Ok((String::new(), last));
        }
        // Each page: its lines, and where the next begins (a code, or a seq, as text).
        let page = |from: &str| -> Result<Option<(String, String)>, StoreError> {
            let statement = if after == 0 {
                "SELECT group_concat(code, char(10)) AS lines, max(code) AS last
                 FROM (SELECT code FROM campaign_codes WHERE code > ? ORDER BY code LIMIT ?)"
            } else {
                "SELECT group_concat(code, char(10)) AS lines, CAST(max(seq) AS TEXT) AS last
                 FROM (SELECT code, seq FROM campaign_codes WHERE seq > CAST(? AS INTEGER) ORDER BY seq LIMIT ?)"
            };
            let rows: Vec<LinesRow> = self
                .sql
                .exec(statement, vec![from.into(), CODE_LINES_PAGE.into()])
                .and_then(|c| c.to_array())
                .map_err(backend)?;
            Ok(match rows.into_iter().next() {
                Some(LinesRow {
                    lines: Some(lines),
                    last: Some(last),
                }) => Some((lines, last)),
                _ => None,
            })
        };
        let mut lines = String::new();
        let mut from = if after == 0 { String::new() } else { after.to_string() };
        while let Some((more, next)) = page(&from)? {
            if !lines.is_empty() {
                lines.push('\n');
            }
            lines.push_str(&more);
            from = next;
        }
        Ok((lines, last))
    }

    /// How many codes the campaign has.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn campaign_code_count(&self) -> Result<u64, StoreError> {
        let rows: Vec<CountRow> = self
            .sql
            .exec("SELECT count(*) AS n FROM campaign_codes", None)
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        Ok(rows.first().map_or(0, |r| u64::try_from(r.n).unwrap_or(0)))
    }

    /// How many of the campaign's codes have a use that counts at `now`
    /// (captured, or held and not expired).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn campaign_codes_used(&self, now: Timestamp) -> Result<u64, StoreError> {
        let rows: Vec<CountRow> = self
            .sql
            .exec(
                "SELECT count(*) AS n FROM campaign_codes k
                 WHERE EXISTS (SELECT 1 FROM usage_code u WHERE u.code = k.code AND u.n > 0)
                    OR EXISTS (SELECT 1 FROM holds h WHERE h.through = k.code AND h.expires > ?)",
                vec![now.sortable().into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        Ok(rows.first().map_or(0, |r| u64::try_from(r.n).unwrap_or(0)))
    }

    /// A campaign's code's captured uses and holds that count at `now`, as this
    /// object has them (a campaign's shard has some of them).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn code_counts(&self, code: &str, now: Timestamp) -> Result<(u64, u64), StoreError> {
        #[derive(Deserialize)]
        struct Row {
            uses: i64,
            held: i64,
        }
        let row: Row = self
            .sql
            .exec(
                "SELECT COALESCE((SELECT n FROM usage_code WHERE code = ?1), 0) AS uses,
                    (SELECT count(*) FROM holds WHERE through = ?1 AND expires > ?2) AS held",
                vec![code.into(), now.sortable().into()],
            )
            .and_then(|c| c.one())
            .map_err(backend)?;
        Ok((
            u64::try_from(row.uses).unwrap_or(0),
            u64::try_from(row.held).unwrap_or(0),
        ))
    }

    /// How many codes have a use that counts at `now` in this object, whatever
    /// campaign they are listed in (a campaign's shard lists none).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn codes_in_use(&self, now: Timestamp) -> Result<u64, StoreError> {
        let rows: Vec<CountRow> = self
            .sql
            .exec(
                "SELECT count(*) AS n FROM (SELECT code FROM usage_code WHERE n > 0
                   UNION SELECT through FROM holds WHERE through IS NOT NULL AND expires > ?)",
                vec![now.sortable().into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        Ok(rows.first().map_or(0, |r| u64::try_from(r.n).unwrap_or(0)))
    }

    /// The codes the campaign already has among `codes`.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn campaign_codes_among(&self, codes: &[Code]) -> Result<Vec<Code>, StoreError> {
        let mut found = Vec::new();
        for code in codes {
            if self.has_campaign_code(code)? {
                found.push(code.clone());
            }
        }
        Ok(found)
    }

    /// The answer kept under an adding call's `key`, whether its codes are
    /// in, and the request it answers (as it was sent).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn code_batch(&self, key: &IdempotencyKey) -> Result<Option<CodeBatch>, StoreError> {
        let rows: Vec<BatchRow> = self
            .sql
            .exec(
                "SELECT answer, committed, request FROM code_batches WHERE key = ?",
                vec![key.as_str().into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)?;
        Ok(rows.into_iter().next().map(|row| CodeBatch {
            answer: row.answer,
            committed: row.committed != 0,
            request: row.request,
        }))
    }

    /// Keeps an adding call's `answer` to `request` under its `key`, its codes not in yet.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn plan_codes(&self, key: &IdempotencyKey, request: &str, answer: &str) -> Result<(), StoreError> {
        self.sql
            .exec(
                "INSERT INTO code_batches(key, answer, committed, request) VALUES (?, ?, 0, ?) ON CONFLICT(key) DO NOTHING",
                vec![key.as_str().into(), answer.into(), request.into()],
            )
            .map_err(backend)?;
        Ok(())
    }

    /// Replaces the answer planned under `key`, its codes still not in (a code drawn again).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn replan_codes(&self, key: &IdempotencyKey, answer: &str) -> Result<(), StoreError> {
        self.sql
            .exec(
                "UPDATE code_batches SET answer = ? WHERE key = ? AND committed = 0",
                vec![answer.into(), key.as_str().into()],
            )
            .map_err(backend)?;
        Ok(())
    }

    /// Forgets the plan under `key` if its codes are not in (the campaign
    /// refused them at commit): a retry under the key plans afresh.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn drop_plan(&self, key: &IdempotencyKey) -> Result<(), StoreError> {
        self.sql
            .exec(
                "DELETE FROM code_batches WHERE key = ? AND committed = 0",
                vec![key.as_str().into()],
            )
            .map_err(backend)?;
        Ok(())
    }

    /// Adds the codes planned under `key` to the campaign, in one
    /// transaction (a code it has already is kept once); returns the answer.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails or nothing is planned under `key`.
    pub fn commit_codes(&self, key: &IdempotencyKey, codes: &[String]) -> Result<(), StoreError> {
        self.commit(|| {
            for code in codes {
                self.sql.exec(
                    "INSERT INTO campaign_codes(code) VALUES (?) ON CONFLICT(code) DO NOTHING",
                    vec![code.clone().into()],
                )?;
            }
            self.sql.exec(
                "UPDATE code_batches SET committed = 1 WHERE key = ?",
                vec![key.as_str().into()],
            )?;
            Ok(())
        })
        .map_err(backend)
    }

    /// A page of the campaign's codes after `after` (in the order they were
    /// added; 0 for the first page), with each one's uses and active holds at `now`.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the read fails.
    pub fn campaign_codes_page(&self, after: i64, limit: u32, now: Timestamp) -> Result<Vec<CampaignCode>, StoreError> {
        self.sql
            .exec(
                "SELECT k.seq AS seq, k.code AS code,
                    COALESCE((SELECT n FROM usage_code u WHERE u.code = k.code), 0) AS uses,
                    (SELECT count(*) FROM holds h WHERE h.through = k.code AND h.expires > ?1) AS held
                 FROM campaign_codes k WHERE k.seq > ?2 ORDER BY k.seq LIMIT ?3",
                vec![now.sortable().into(), after.into(), i64::from(limit).into()],
            )
            .and_then(|c| c.to_array())
            .map_err(backend)
    }

    /// Marks the campaign archived (or not), with its change and the
    /// operator's `note`; returns false when there is none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn set_campaign_archived(
        &self,
        archived: bool,
        note: Option<&str>,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        self.forget_subject();
        let Some(stored) = self.campaign()? else {
            return Ok(false);
        };
        let active = stored.campaign.definition().active();
        let before = Version::of(&stored.campaign, active, stored.archived).map_err(backend)?;
        let after = Version::of(&stored.campaign, active, archived).map_err(backend)?;
        self.commit(|| {
            self.write_change(stored.campaign.id(), Some(&before), &after, note, now)?;
            self.sql
                .exec("UPDATE campaign SET archived = ?", vec![i64::from(archived).into()])?;
            let id = stored.campaign.id();
            self.write_update(id, true, Some((active, stored.archived)), (active, archived), now)
        })
        .map_err(backend)?;
        Ok(true)
    }

    /// Stores `promo` as its code's definition, not archived, and its change
    /// with the operator's `note`, and runs `also` in the same transaction;
    /// returns true when it replaced one (an archived one included: defining it again
    /// restores it with its counts).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn put_definition(
        &self,
        promo: &PromoCode,
        note: Option<&str>,
        now: Timestamp,
        also: impl FnOnce() -> worker::Result<()>,
    ) -> Result<bool, StoreError> {
        self.forget_subject();
        let json = serde_json::to_string(promo).map_err(backend)?;
        let code = promo.code().as_str().to_owned();
        let stored = self.definition(promo.code())?;
        let version = stored
            .as_ref()
            .map(|s| Version::of(&s.promo, s.promo.active(), s.archived))
            .transpose()
            .map_err(backend)?;
        let after = Version::of(promo, promo.active(), false).map_err(backend)?;
        let before = stored.map(|stored| (stored.promo.active(), stored.archived));
        self.commit(|| {
            self.write_change(promo.code(), version.as_ref(), &after, note, now)?;
            let existed = before.is_some();
            self.sql.exec(
                "INSERT INTO definition(code, json, archived, defined_at) VALUES (?, ?, 0, ?)
                 ON CONFLICT(code) DO UPDATE SET json = excluded.json, archived = 0",
                vec![code.clone().into(), json.clone().into(), now.to_string().into()],
            )?;
            self.write_update(promo.code(), false, before, (promo.active(), false), now)?;
            also()?;
            Ok(existed)
        })
        .map_err(backend)
    }

    /// Marks `code`'s definition archived (or not), with its change and the
    /// operator's `note`; returns false when there is none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the write fails.
    pub fn set_archived(
        &self,
        code: &Code,
        archived: bool,
        note: Option<&str>,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        self.forget_subject();
        let Some(stored) = self
            .definition(code)?
            .filter(|stored| stored.promo.campaign().is_none())
        else {
            return Ok(false);
        };
        let active = stored.promo.active();
        let before = Version::of(&stored.promo, active, stored.archived).map_err(backend)?;
        let after = Version::of(&stored.promo, active, archived).map_err(backend)?;
        self.commit(|| {
            self.write_change(code, Some(&before), &after, note, now)?;
            self.sql.exec(
                "UPDATE definition SET archived = ? WHERE code = ?",
                vec![i64::from(archived).into(), code.as_str().into()],
            )?;
            self.write_update(code, false, Some((active, stored.archived)), (active, archived), now)?;
            Ok(true)
        })
        .map_err(backend)
    }
}
