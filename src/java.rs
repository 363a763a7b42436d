//! Java sources: which class holds `main` (with its package), and the file name javac wants for the source.
//!
//! A Java program is started by the name of a class, not of a file: the class declaring `static void main`,
//! qualified by the source's `package`. It is read from the source, so that `test-hello.java` holding `class Main`
//! runs as `Main`, and a source without a `main` is a compile error that says so rather than a runtime error.

/// The words and punctuation of a source, without comments, strings and character literals.
fn tokens(source: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' | '\'' => {
                // Text blocks ("""...""") end at the same quote as ordinary strings, three times over.
                let mut escaped = false;
                for d in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == c {
                        break;
                    }
                }
            }
            c if c.is_alphanumeric() || c == '_' || c == '$' => {
                let mut word = c.to_string();
                while let Some(&d) = chars.peek() {
                    if !(d.is_alphanumeric() || d == '_' || d == '$' || d == '.') {
                        break;
                    }
                    word.push(d);
                    chars.next();
                }
                tokens.push(word);
            }
            c if c.is_whitespace() => {}
            c => tokens.push(c.to_string()),
        }
    }
    tokens
}

const TYPE_WORDS: [&str; 4] = ["class", "interface", "enum", "record"];

/// The binary name of the class declaring `static void main` ("Main", "contest.a.Main", "Outer$Inner"), or why
/// there is none.
pub(crate) fn main_class(source: &str) -> Result<String, String> {
    let tokens = tokens(source);
    let package = tokens
        .windows(2)
        .find(|w| w[0] == "package")
        .map(|w| w[1].clone());
    // The types open at each point: their names, and the brace depth their bodies are at.
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut pending: Option<String> = None;
    let mut depth = 0;
    for (i, token) in tokens.iter().enumerate() {
        match token.as_str() {
            "{" => {
                depth += 1;
                if let Some(name) = pending.take() {
                    open.push((name, depth));
                }
            }
            "}" => {
                if open.last().is_some_and(|(_, d)| *d == depth) {
                    open.pop();
                }
                depth = depth.saturating_sub(1);
            }
            word if TYPE_WORDS.contains(&word) => {
                pending = tokens.get(i + 1).cloned();
            }
            "main" if tokens.get(i + 1).is_some_and(|t| t == "(") && i >= 2 => {
                let declaration = &tokens[i.saturating_sub(6)..i];
                let is_main = tokens[i - 1] == "void"
                    && declaration.iter().any(|t| t == "static")
                    && open.last().is_some_and(|(_, d)| *d == depth);
                if is_main {
                    let nested: Vec<&str> = open.iter().map(|(name, _)| name.as_str()).collect();
                    let class = nested.join("$");
                    return Ok(match &package {
                        Some(package) => format!("{package}.{class}"),
                        None => class,
                    });
                }
            }
            _ => {}
        }
    }
    Err("no class declares `public static void main(String[] args)`".to_owned())
}

/// The name javac requires for a source whose top-level public class is `X`: `X.java`. Other sources keep theirs.
pub(crate) fn source_file_name(source: &str, original: &str) -> String {
    let tokens = tokens(source);
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate() {
        match token.as_str() {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            word if depth == 0 && TYPE_WORDS.contains(&word) => {
                let public = tokens[..i].iter().rev().take(4).any(|t| t == "public");
                // Only a name javac would take: a word of letters, digits, `_` and `$` (never a path).
                if public
                    && let Some(name) = tokens.get(i + 1)
                    && is_identifier(name)
                {
                    return format!("{name}.java");
                }
            }
            _ => {}
        }
    }
    original.to_owned()
}

/// Whether `word` can name a Java class.
fn is_identifier(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_class_that_is_no_name_leaves_the_file_its_name() {
        for source in [
            "public class / {}",
            "public class ../x {}",
            "public class . {}",
        ] {
            assert_eq!(source_file_name(source, "Sol.java"), "Sol.java", "{source}");
        }
        assert_eq!(
            source_file_name("public class $Ok_1 {}", "Sol.java"),
            "$Ok_1.java"
        );
    }

    #[test]
    fn the_class_with_main() {
        let cases = [
            (
                "class Main { public static void main(String[] a) {} }",
                "Main",
            ),
            (
                "package contest.a;\nimport java.util.*;\npublic class Sol { static public void main(String... a) {} }",
                "contest.a.Sol",
            ),
            (
                "class Helper { void main() {} }\nfinal class Run { public static void main(String[] a) { String s = \"class X {\"; } }",
                "Run",
            ),
            (
                "// class Fake { public static void main(String[] a) {} }\n/* class Faker {} */ class Real { static class In {} public static void main(String[] a) {} }",
                "Real",
            ),
            (
                "public class Outer { static class Inner { public static void main(String[] a) {} } }",
                "Outer$Inner",
            ),
        ];
        for (source, class) in cases {
            assert_eq!(main_class(source).as_deref(), Ok(class), "{source}");
        }
        assert!(main_class("class A { void run() {} }").is_err());
    }

    #[test]
    fn a_public_class_names_its_file() {
        assert_eq!(
            source_file_name("import x.*; public final class Main {}", "test-hello.java"),
            "Main.java"
        );
        assert_eq!(
            source_file_name("class Main { public void f() {} }", "test-hello.java"),
            "test-hello.java"
        );
    }
}
