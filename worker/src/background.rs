//! Work a request starts that its answer need not wait for: it begins once
//! the request's handler has made its answer, under the request's
//! `waitUntil`, which keeps the runtime from cancelling it.
//!
//! The Worker's `fetch` runs its handler [`InContext`]: while the handler
//! runs (each poll of its future: an isolate runs one at a time, whatever
//! number of requests it interleaves), [`after_answer`] finds that
//! request's list of work to begin. When the handler is done, each is
//! handed to `waitUntil`. A handler that never finishes (a request the
//! runtime cancelled: workers-rs then never drops its future) never begins
//! its work, so work must not hold what others wait for past a bound (a
//! campaign's list load holds a lease that ends by itself). A Durable
//! Object's turn has no such list; there the caller does the work itself,
//! before its answer.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context as Task, Poll};

use worker::Context;

/// Work to begin after a request's answer.
type Work = Pin<Box<dyn Future<Output = ()>>>;

thread_local! {
    /// The work list of the request whose handler is being polled, if any.
    static CURRENT: RefCell<Option<Rc<RefCell<Vec<Work>>>>> = const { RefCell::new(None) };
}

/// A request's handler, polled with its work list at hand for [`after_answer`].
pub struct InContext<F> {
    ctx: Context,
    after: Rc<RefCell<Vec<Work>>>,
    inner: Pin<Box<F>>,
}

impl<F: Future> InContext<F> {
    /// `inner`, run as the handler of the request whose context is `ctx`.
    pub fn new(ctx: Context, inner: F) -> InContext<F> {
        InContext {
            ctx,
            after: Rc::default(),
            inner: Box::pin(inner),
        }
    }
}

/// Sets back the list that was current before a poll, when the poll ends (or unwinds).
struct Restore(Option<Rc<RefCell<Vec<Work>>>>);

impl Drop for Restore {
    fn drop(&mut self) {
        let before = self.0.take();
        CURRENT.with(|current| *current.borrow_mut() = before);
    }
}

impl<F: Future> Future for InContext<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, task: &mut Task<'_>) -> Poll<F::Output> {
        let polled = {
            let after = Rc::clone(&self.after);
            let _restore = Restore(CURRENT.with(|current| current.replace(Some(after))));
            self.inner.as_mut().poll(task)
        };
        if polled.is_ready() {
            for work in self.after.take() {
                self.ctx.wait_until(work);
            }
        }
        polled
    }
}

/// Begins `work` once the handler of the request being handled has made
/// its answer, under the request's `waitUntil`. With no request's handler
/// being polled (a Durable Object's turn, a native test), `work` comes
/// back, for the caller to await.
///
/// # Errors
///
/// `Err(work)` when no request's handler is being polled.
pub fn after_answer<W: Future<Output = ()> + 'static>(work: W) -> Result<(), W> {
    match CURRENT.with(|current| current.borrow().clone()) {
        Some(after) => {
            after.borrow_mut().push(Box::pin(work));
            Ok(())
        }
        None => Err(work),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_request_the_work_comes_back() {
        assert!(after_answer(async {}).is_err(), "no handler is being polled");
    }
}
