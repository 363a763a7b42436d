//! A problem's statement (`statement.md`) as a package holds it: rendered to LaTeX for the legacy format, whose
//! tools read `problem_statement/problem.en.tex` alone; as Markdown for 2025-09 (`statement/problem.en.md`).
//!
//! Either way the statement's own title heading is left out (the format prints the name from problem.yaml) and
//! so is its samples section: the format shows `data/sample`'s tests itself, and 2025-09 wants no sample data in
//! a statement.

use super::{Format, files};
use crate::error::{Error, Result};
use crate::problem::Problem;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::ops::Range;
use std::path::Path;

/// The statement: our `statement.md` rendered for the format; a package's own statement folder as it is; or,
/// where there is neither, the name alone, which the legacy format's tools need.
pub(super) fn write(problem: &Problem, root: &Path, format: Format) -> Result<()> {
    let (folder, file) = match format {
        Format::Legacy => ("problem_statement", "problem.en.tex"),
        Format::V2025_09 => ("statement", "problem.en.md"),
    };
    let ours = problem.dir.join("statement.md");
    if ours.is_file() {
        let source = std::fs::read_to_string(&ours).map_err(|e| Error::io("read", &ours, e))?;
        let text = match format {
            Format::Legacy => latex(&problem.title, &source),
            Format::V2025_09 => markdown(&source),
        };
        return files::write(
            &root.join(folder).join(file),
            format!("{text}\n").as_bytes(),
        );
    }
    // A Markdown statement's constants are replaced (2025-09): the package written has no `constants` to read
    // them from.
    let constants = problem
        .package
        .as_ref()
        .map(|p| p.constants.as_ref())
        .filter(|c| !c.is_empty());
    for theirs in ["problem_statement", "statement"] {
        let dir = problem.dir.join(theirs);
        if dir.is_dir() {
            for entry in walkdir::WalkDir::new(&dir).into_iter().flatten() {
                if entry.file_type().is_file() {
                    let below = entry.path().strip_prefix(&dir).unwrap_or(entry.path());
                    let to = root.join(folder).join(below);
                    match constants {
                        Some(constants) if entry.path().extension().is_some_and(|e| e == "md") => {
                            let text = std::fs::read(entry.path())
                                .map_err(|e| Error::io("read", entry.path(), e))?;
                            files::write(&to, &constants.substitute_bytes(&text))?;
                        }
                        _ => files::copy(entry.path(), &to)?,
                    }
                }
            }
            return Ok(());
        }
    }
    let text = match format {
        Format::Legacy => latex(&problem.title, ""),
        Format::V2025_09 => String::new(),
    };
    files::write(
        &root.join(folder).join(file),
        format!("{text}\n").as_bytes(),
    )
}

/// What the Markdown parser reads: CommonMark with `$math$`, which passes through to LaTeX as it is.
fn options() -> Options {
    Options::ENABLE_MATH
}

/// The statement as a legacy package's LaTeX: `\problemname{title}`, then the body.
pub(super) fn latex(title: &str, markdown: &str) -> String {
    let mut out = format!("\\problemname{{{}}}\n\n", escape(title));
    let mut lists: Vec<bool> = Vec::new();
    let mut in_code = false;
    let skipped = skipped(markdown);
    for (event, at) in Parser::new_ext(markdown, options()).into_offset_iter() {
        if skipped.iter().any(|r| r.contains(&at.start)) {
            continue;
        }
        match event {
            Event::Start(tag) => match tag {
                Tag::Heading { level, .. } => out.push_str(match level {
                    HeadingLevel::H1 | HeadingLevel::H2 => "\\section*{",
                    HeadingLevel::H3 => "\\subsection*{",
                    _ => "\\paragraph*{",
                }),
                Tag::Paragraph => {}
                Tag::Emphasis => out.push_str("\\emph{"),
                Tag::Strong => out.push_str("\\textbf{"),
                Tag::BlockQuote(_) => out.push_str("\\begin{quote}\n"),
                Tag::CodeBlock(_) => {
                    in_code = true;
                    out.push_str("\\begin{verbatim}\n");
                }
                Tag::List(first) => {
                    lists.push(first.is_some());
                    out.push_str(if first.is_some() {
                        "\\begin{enumerate}\n"
                    } else {
                        "\\begin{itemize}\n"
                    });
                }
                Tag::Item => out.push_str("\\item "),
                Tag::Link { dest_url, .. } => {
                    out.push_str(&format!("\\href{{{}}}{{", escape_url(&dest_url)));
                }
                // An image's file is not in the package: its description stands in for it.
                Tag::Image { .. } => out.push_str("\\emph{"),
                _ => {}
            },
            Event::End(tag) => match tag {
                TagEnd::Heading(_) => out.push_str("}\n\n"),
                TagEnd::Paragraph => out.push_str("\n\n"),
                TagEnd::Emphasis | TagEnd::Strong | TagEnd::Link | TagEnd::Image => out.push('}'),
                TagEnd::BlockQuote(_) => out.push_str("\\end{quote}\n\n"),
                TagEnd::CodeBlock => {
                    in_code = false;
                    if !out.ends_with('\n') {
                        out.push('\n');
                    }
                    out.push_str("\\end{verbatim}\n\n");
                }
                TagEnd::List(_) => {
                    let ordered = lists.pop().unwrap_or(false);
                    out.push_str(if ordered {
                        "\\end{enumerate}\n\n"
                    } else {
                        "\\end{itemize}\n\n"
                    });
                }
                TagEnd::Item => out.push('\n'),
                _ => {}
            },
            Event::Text(text) if in_code => out.push_str(&text),
            Event::Text(text) => out.push_str(&escape(&text)),
            Event::Code(code) => out.push_str(&format!("\\texttt{{{}}}", escape(&code))),
            Event::InlineMath(math) => out.push_str(&format!("${math}$")),
            Event::DisplayMath(math) => out.push_str(&format!("\\[{math}\\]")),
            Event::SoftBreak => out.push('\n'),
            Event::HardBreak => out.push_str("\\\\\n"),
            Event::Rule => out.push_str("\\par\\noindent\\rule{\\linewidth}{0.4pt}\n\n"),
            // Comments to the statement's authors, and any other HTML, say nothing to a reader of the PDF.
            Event::Html(_) | Event::InlineHtml(_) => {}
            _ => {}
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The statement as 2025-09's Markdown: as written, without its title and samples.
pub(super) fn markdown(markdown: &str) -> String {
    let mut out = String::new();
    let mut from = 0;
    for range in skipped(markdown) {
        out.push_str(&markdown[from..range.start]);
        from = range.end;
    }
    out.push_str(&markdown[from..]);
    // What was left out leaves blank lines behind.
    while out.contains("\n\n\n") {
        out = out.replace("\n\n\n", "\n\n");
    }
    format!("{}\n", out.trim())
}

/// The byte ranges left out, in order: a first-level heading before anything else (the title), each section
/// whose heading is "Sample" or "Samples", up to the next heading of its level or above, and HTML comments.
fn skipped(markdown: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut seen_content = false;
    let mut open: Option<(usize, HeadingLevel)> = None;
    let mut heading: Option<(usize, HeadingLevel, String)> = None;
    for (event, at) in Parser::new_ext(markdown, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                if let Some((start, open_level)) = open
                    && level <= open_level
                {
                    ranges.push(start..at.start);
                    open = None;
                }
                heading = Some((at.start, level, String::new()));
            }
            Event::Text(text) | Event::Code(text) if heading.is_some() => {
                if let Some((_, _, words)) = &mut heading {
                    words.push_str(&text);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let (start, level, words) = heading.take().expect("a heading was opened");
                let words = words.trim().to_lowercase();
                if level == HeadingLevel::H1 && !seen_content {
                    ranges.push(start..at.end);
                } else if words == "sample" || words == "samples" {
                    open = Some((start, level));
                }
                seen_content = true;
            }
            // Comments to the statement's authors are nothing a reader sees: left out.
            Event::Html(html) if html.trim_start().starts_with("<!--") => ranges.push(at),
            Event::Html(_)
            | Event::InlineHtml(_)
            | Event::Start(Tag::HtmlBlock)
            | Event::End(TagEnd::HtmlBlock) => {}
            _ if heading.is_none() => seen_content = true,
            _ => {}
        }
    }
    if let Some((start, _)) = open {
        ranges.push(start..markdown.len());
    }
    // A comment may lie in a samples section: one range covers both.
    ranges.sort_by_key(|r| r.start);
    let mut merged: Vec<Range<usize>> = Vec::new();
    for range in ranges {
        match merged.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => merged.push(range),
        }
    }
    merged
}

/// Text for LaTeX: its special characters spelt out, and the mathematical signs a statement uses set as
/// mathematics, which any font has.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '|' => out.push_str("\\textbar{}"),
            // Two hyphens would become a dash.
            '-' if chars.peek() == Some(&'-') => out.push_str("-{}"),
            '±' => out.push_str("$\\pm$"),
            '×' => out.push_str("$\\times$"),
            '≤' => out.push_str("$\\le$"),
            '≥' => out.push_str("$\\ge$"),
            '≠' => out.push_str("$\\ne$"),
            '−' => out.push_str("$-$"),
            '·' => out.push_str("$\\cdot$"),
            '…' => out.push_str("\\ldots{}"),
            'Σ' => out.push_str("$\\Sigma$"),
            '→' => out.push_str("$\\to$"),
            '←' => out.push_str("$\\leftarrow$"),
            _ => out.push(c),
        }
    }
    out
}

/// A link's target for `\href`: only the characters that would end or break the argument escaped.
fn escape_url(url: &str) -> String {
    url.replace('\\', "/")
        .replace('%', "\\%")
        .replace('#', "\\#")
        .replace('{', "%7B")
        .replace('}', "%7D")
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATEMENT: &str = "<!-- A note to the authors. -->\n\n# Knight and pawns\n\nA *knight* stands on \
        **one** square; print `n_i` for $1 \\le n \\le 10^5$ and 50% of ± cases.\n\n## Input\n\nTwo lines:\n\n\
        - first `x y`,\n- then n\n\n1. one\n2. two\n\n## Samples\n\nInput:\n```\n1 1\n```\nExplained.\n\n\
        ## Notes\n\nSee [the site](https://example.org/a_b#c) -- or not.\n\n$$\nx^2\n$$\n";

    #[test]
    fn markdown_as_latex() {
        insta::assert_snapshot!(latex("Knight & pawns", STATEMENT), @r"
        \problemname{Knight \& pawns}

        A \emph{knight} stands on \textbf{one} square; print \texttt{n\_i} for $1 \le n \le 10^5$ and 50\% of $\pm$ cases.

        \section*{Input}

        Two lines:

        \begin{itemize}
        \item first \texttt{x y},
        \item then n
        \end{itemize}

        \begin{enumerate}
        \item one
        \item two
        \end{enumerate}

        \section*{Notes}

        See \href{https://example.org/a_b\#c}{the site} -{}- or not.

        \[
        x^2
        \]
        ");
    }

    #[test]
    fn markdown_without_title_and_samples() {
        let kept = markdown(STATEMENT);
        assert!(kept.starts_with("A *knight*"), "{kept}");
        assert!(
            !kept.contains("Samples") && !kept.contains("Explained"),
            "{kept}"
        );
        assert!(
            kept.contains("## Input") && kept.contains("## Notes"),
            "{kept}"
        );
        // A heading after something else is no title.
        assert!(markdown("Text.\n\n# Part\n\nMore.\n").contains("# Part"));
        // A sample section at the end goes to the end, with the comments in it.
        assert_eq!(
            markdown("# T\n\nA.\n\n## Sample\n\n<!-- Keep it in step. -->\n\n```\n1\n```\n"),
            "A.\n"
        );
    }
}
