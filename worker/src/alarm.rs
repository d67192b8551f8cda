//! A Durable Object's one alarm, as this instance knows it, and how it is
//! set so that a write's events never wait for traffic.
//!
//! The object's alarm wakes it for the next hold's expiry, for the figures
//! counted in memory, and to deliver the outbox's events to the shop's
//! endpoints. An event is a row written in its use's own transaction; its
//! alarm must not be a separate step that a crash can fall between. So the
//! store calls [`Alarm::issue`] right after the transaction, in the same
//! synchronous turn: `storage.setAlarm` is called there and then (not when a
//! future is first polled), and SQLite-backed storage commits the alarm with
//! the turn's writes (an alarm moved earlier is scheduled before the commit).
//! The call's promise is awaited later with [`Alarm::settle`], once the
//! request's work is done.

use std::cell::{Cell, RefCell};

use promocodes::Timestamp;
use wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::JsFuture;
use worker::{js_sys, Storage};

/// The object's alarm: when it is set for (as far as this instance knows:
/// it starts unknown), and the `setAlarm` call issued and not yet settled.
#[derive(Default)]
pub struct Alarm {
    at: Cell<Option<Timestamp>>,
    issued: RefCell<Option<(JsFuture, Option<Timestamp>)>>,
}

impl std::fmt::Debug for Alarm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Alarm")
            .field("at", &self.at.get())
            .finish_non_exhaustive()
    }
}

impl Alarm {
    /// When the alarm is set for, as this instance knows.
    pub fn at(&self) -> Option<Timestamp> {
        self.at.get()
    }

    /// Forgets when it was set for: it has just run.
    pub fn forget(&self) {
        self.at.set(None);
    }

    /// Whether the alarm is known to be set for `at` or sooner.
    pub fn set_by(&self, at: Timestamp) -> bool {
        self.at.get().is_some_and(|set| set <= at)
    }

    /// Calls `storage.setAlarm(at)` now, in this synchronous turn, so that
    /// it commits with the turn's writes; [`Alarm::settle`] awaits it.
    ///
    /// # Errors
    ///
    /// The runtime refused the call (it did not start).
    pub fn issue(&self, storage: &Storage, at: Timestamp) -> worker::Result<()> {
        let raw: &JsValue = storage.as_raw().as_ref();
        let set: js_sys::Function = js_sys::Reflect::get(raw, &JsValue::from_str("setAlarm"))?
            .dyn_into()
            .map_err(|_| worker::Error::RustError("storage.setAlarm is missing".to_owned()))?;
        // Just after `at`: an alarm runs at its time or later, never before.
        let when = js_sys::Date::new(&JsValue::from_f64(at.as_unix_millis() as f64 + 1.0));
        let promise: js_sys::Promise = set.call1(raw, &when)?.dyn_into()?;
        let before = self.at.replace(Some(at));
        // An earlier call not yet settled keeps its own "before": the one to go back to on failure.
        let mut issued = self.issued.borrow_mut();
        let before = issued.take().map_or(before, |(_, first)| first);
        *issued = Some((JsFuture::from(promise), before));
        Ok(())
    }

    /// Awaits the call [`Alarm::issue`] made, if any; on failure, forgets
    /// the time it set, so that the next write sets it again.
    ///
    /// # Errors
    ///
    /// The runtime's error setting the alarm.
    pub async fn settle(&self) -> worker::Result<()> {
        let Some((future, before)) = self.issued.borrow_mut().take() else {
            return Ok(());
        };
        if let Err(error) = future.await {
            self.at.set(before);
            return Err(error.into());
        }
        Ok(())
    }

    /// Sets the alarm for `at` and waits for it.
    ///
    /// # Errors
    ///
    /// The runtime's error setting the alarm.
    pub async fn set(&self, storage: &Storage, at: Timestamp) -> worker::Result<()> {
        self.issue(storage, at)?;
        self.settle().await
    }
}
