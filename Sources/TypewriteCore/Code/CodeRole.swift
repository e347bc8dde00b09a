// The vocabulary of the code scanner: what role a character of source code plays. Only the
// standard library is used, so this folder compiles on its own with Markdown/ (see Scripts/).

/// The syntax role of one byte of code inside a fenced code block whose language is known
/// (`CodeLanguage`): a role, not a colour — `MarkdownAppearance` chooses the look.
///
/// The first seven are the roles every language has; the others are kinds of text only some
/// languages have (markup tags, diff lines, a console's prompt and output). The roles follow the
/// token classes of Pygments 2.x (pygments.org/docs/tokens), which `Scripts/check/code-colors-check.py`
/// uses as its oracle: `Keyword.*` (types and word operators included) is `keyword` except
/// `Keyword.Constant`, which is `builtin`; `Name.Function`, `Name.Class` and `Name.Decorator` are
/// `definition`; `Name.Builtin`, `Name.Constant`, `Name.Exception`, `self` and `this` are `builtin`.
public enum CodeRole: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Names, operators and punctuation: the block's base code style.
    case plain
    /// A reserved word, a type keyword (`int`, `i32`), a word operator (`and`, `in`), a
    /// preprocessor directive (`#include`), a CSS property.
    case keyword
    /// A string, character or regular expression literal, its quotes and prefix included (`f"…"`,
    /// `r#"…"#`), a heredoc, the file of an `#include`.
    case string
    /// A comment, doc comments included (`///`, `/** */`).
    case comment
    /// A numeric literal (`42`, `0x1F`, `1_000.5e3`).
    case number
    /// The name a definition introduces (`def greet`, `fn main`, `class Foo`), a decorator or
    /// annotation (`@property`), a Rust macro (`println!`).
    case definition
    /// A builtin function or type, a constant (`print`, `len`, `True`, `None`, `nil`, `NULL`),
    /// `self` and `this`.
    case builtin
    /// A markup tag's name and brackets (`<div>`), a CSS selector.
    case tag
    /// A markup attribute's name (`class=`).
    case attribute
    /// A key of a JSON object or a YAML mapping.
    case key
    /// A diff's added line.
    case inserted
    /// A diff's removed line.
    case deleted
    /// A diff's context line.
    case unchanged
    /// A diff's file and hunk headers (`---`, `+++`, `@@ … @@`).
    case heading
    /// A console session's prompt (`$ `).
    case prompt
    /// A console session's output lines.
    case output

    public var description: String {
        switch self {
        case .plain: "plain"
        case .keyword: "keyword"
        case .string: "string"
        case .comment: "comment"
        case .number: "number"
        case .definition: "definition"
        case .builtin: "builtin"
        case .tag: "tag"
        case .attribute: "attribute"
        case .key: "key"
        case .inserted: "inserted"
        case .deleted: "deleted"
        case .unchanged: "unchanged"
        case .heading: "heading"
        case .prompt: "prompt"
        case .output: "output"
        }
    }
}
