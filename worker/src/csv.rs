//! CSV answers: a cell neutralised for spreadsheets ([`csv_cell`]), and a
//! CSV body streamed a page at a time ([`stream`]), for a campaign's codes
//! and a code's or a campaign's history.

use std::future::Future;

use worker::Response;

use crate::problem::Problem;

/// A CSV answer (`text/csv; charset=utf-8`), streamed: `page` is called with
/// the empty cursor first, then with each cursor it gives back, until it
/// gives none; each page's bytes are one chunk. A page that fails ends the
/// stream with its problem.
///
/// # Errors
///
/// A runtime error building the response.
pub fn stream<F, Fut>(page: F) -> std::result::Result<Response, Problem>
where
    F: Fn(String) -> Fut + 'static,
    Fut: Future<Output = std::result::Result<(Vec<u8>, Option<String>), Problem>> + 'static,
{
    // The state: the cursor of the next page (empty for the first), or None when done.
    let pages = futures_util::stream::unfold(Some(String::new()), move |cursor| {
        let next = cursor.map(&page);
        async move {
            match next?.await {
                Ok((chunk, next)) => Some((Ok::<Vec<u8>, worker::Error>(chunk), next)),
                Err(problem) => Some((Err(worker::Error::RustError(problem.body().to_string())), None)),
            }
        }
    });
    let mut response = Response::from_stream(pages)?;
    response.headers_mut().set("content-type", "text/csv; charset=utf-8")?;
    Ok(response)
}

/// One CSV cell of text: a cell a spreadsheet would run as a formula (one
/// that starts with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a
/// leading `'`, as OWASP recommends against CSV injection and as the
/// console's download writes it (`csvField` in `public/admin/figures.js`); a
/// cell so changed, or with a `"`, a comma or a line break, is quoted
/// (RFC 4180). Any other cell is written as it is.
pub fn csv_cell(text: &str) -> String {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let text = if formula { format!("'{text}") } else { text.to_owned() };
    if formula || text.contains(['"', ',', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::csv_cell;

    #[test]
    fn csv_cells_a_spreadsheet_would_run_are_neutralised() {
        assert_eq!(csv_cell("SP-AB12"), "SP-AB12");
        assert_eq!(csv_cell("-A1"), "\"'-A1\"");
        assert_eq!(csv_cell("=1+1"), "\"'=1+1\"");
        assert_eq!(csv_cell("+1"), "\"'+1\"");
        assert_eq!(csv_cell("@SUM(A1)"), "\"'@SUM(A1)\"");
        assert_eq!(csv_cell("\tx"), "\"'\tx\"");
        assert_eq!(csv_cell("\rx"), "\"'\rx\"");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_cell("A-1"), "A-1", "only a leading sign is a formula");
    }
}
