//! The README stays a README (issue 33): at most 250 lines, naming the two
//! commands of the quick start and pointing to every guide in `docs/`; and
//! every relative link of the README and the guides reaches a file, and a
//! heading of it when the link names one.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const MAX_README_LINES: usize = 250;
const GUIDES: [&str; 5] = [
    "http-api.md",
    "payments.md",
    "operating.md",
    "postgres.md",
    "browser.md",
];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The anchor GitHub gives a heading: lower case, letters, digits, `-` and
/// `_` kept, spaces made `-`, everything else dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(markdown: &str) -> HashSet<String> {
    let mut fenced = false;
    let mut found = HashSet::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.insert(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// Every `](target)` of a Markdown file, outside code blocks.
fn links(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').expect("a link's closing parenthesis");
            found.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    found
}

fn check_links(file: &Path) -> Vec<String> {
    let text = read(file);
    let dir = file.parent().expect("a folder");
    let mut broken = Vec::new();
    for link in links(&text) {
        if link.contains("://") || link.starts_with("mailto:") {
            continue;
        }
        let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
        let target: PathBuf = if path.is_empty() {
            file.to_path_buf()
        } else {
            dir.join(path)
        };
        if !target.exists() {
            broken.push(format!("{}: {link}: no such file", file.display()));
        } else if !fragment.is_empty() && !anchors(&read(&target)).contains(fragment) {
            broken.push(format!("{}: {link}: no such heading", file.display()));
        }
    }
    broken
}

#[test]
fn the_readme_is_at_most_250_lines() {
    let lines = read(&Path::new(ROOT).join("README.md")).lines().count();
    assert!(
        lines <= MAX_README_LINES,
        "README.md has {lines} lines, over {MAX_README_LINES}: move the reference to docs/"
    );
}

#[test]
fn the_readme_names_the_quick_start_and_every_guide() {
    let readme = read(&Path::new(ROOT).join("README.md"));
    for command in ["./scripts/run.sh", "./scripts/test.sh"] {
        assert!(readme.contains(command), "README.md names {command}");
    }
    for guide in GUIDES {
        assert!(
            readme.contains(&format!("](docs/{guide}")),
            "README.md links docs/{guide}"
        );
    }
}

#[test]
fn every_relative_link_of_the_readme_and_the_guides_reaches_its_target() {
    let root = Path::new(ROOT);
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    files.extend(GUIDES.iter().map(|guide| root.join("docs").join(guide)));
    files.push(root.join("docs/performance.md"));
    let broken: Vec<String> = files.iter().flat_map(|file| check_links(file)).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_heading_anchor_is_githubs() {
    assert_eq!(anchor(" The operator's console"), "the-operators-console");
    assert_eq!(
        anchor(" On your own servers (PostgreSQL)"),
        "on-your-own-servers-postgresql"
    );
    assert_eq!(anchor(" PostgreSQL (issue 23)"), "postgresql-issue-23");
    assert!(!anchors("```\n# not a heading\n```\n").contains("not-a-heading"));
}
