// The languages the code scanner knows, one table each: the words of the language (from its
// reference: keywords, types, constants, builtins), the forms of its comments and strings, and
// the switches for the rules of their own that `CodeScanner` has. The roles follow the token
// classes of Pygments 2.x, the oracle `Scripts/check/code-colors-check.py` judges by.

enum CodeLanguages {
    typealias Form = CodeLanguage.StringForm

    private static func quote(_ q: String, escapes: Bool = true, multiline: Bool = false,
                              interpolation: CodeLanguage.Interpolation = .none, doubled: Bool = false) -> Form {
        Form(open: Array(q.utf8), close: Array(q.utf8), escapes: escapes, multiline: multiline,
             interpolation: interpolation, doubledCloseEscapes: doubled)
    }

    // MARK: Python (The Python Language Reference 3.12, 2.3 and 2.4; builtins: The Python
    // Standard Library, "Built-in Functions", "Built-in Exceptions")

    static let python = CodeLanguage(
        name: "python", aliases: ["python", "py", "python3", "py3", "pyi", "sage", "bazel", "starlark"],
        words: CodeWordTable([
            ("def class", .definer),
            ("""
             and as assert async await break continue del elif else except finally for from global if import
             in is lambda nonlocal not or pass raise return try while with yield
             """, .keyword),
            ("True False None self cls Ellipsis NotImplemented", .builtin),
            ("""
             abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile
             complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float format
             frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len license
             list locals map max memoryview min next object oct open ord pow print property quit range repr
             reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__
             """, .builtin),
            ("""
             ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
             BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
             ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError EncodingWarning
             EnvironmentError Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError
             FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
             InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
             ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError
             PendingDeprecationWarning PermissionError ProcessLookupError PythonFinalizationError RecursionError
             ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration
             SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError UnboundLocalError
             UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning
             ValueError Warning WindowsError ZeroDivisionError
             """, .builtin),
            ("""
             __abs__ __add__ __aenter__ __aexit__ __aiter__ __and__ __anext__ __await__ __bool__ __bytes__
             __call__ __ceil__ __class_getitem__ __cmp__ __coerce__ __complex__ __contains__ __del__
             __delattr__ __delete__ __delitem__ __delslice__ __dir__ __div__ __divmod__ __enter__ __eq__
             __exit__ __float__ __floor__ __floordiv__ __format__ __fspath__ __ge__ __get__ __getattr__
             __getattribute__ __getitem__ __getnewargs__ __getslice__ __getstate__ __gt__ __hash__ __hex__
             __iadd__ __iand__ __idiv__ __ifloordiv__ __ilshift__ __imatmul__ __imod__ __imul__ __index__
             __init__ __init_subclass__ __instancecheck__ __int__ __invert__ __ior__ __ipow__ __irshift__
             __isub__ __iter__ __itruediv__ __ixor__ __le__ __len__ __length_hint__ __long__ __lshift__ __lt__
             __matmul__ __missing__ __mod__ __mul__ __ne__ __neg__ __new__ __next__ __nonzero__ __oct__ __or__
             __pos__ __pow__ __prepare__ __radd__ __rand__ __rcmp__ __rdiv__ __rdivmod__ __repr__ __reversed__
             __rfloordiv__ __rlshift__ __rmatmul__ __rmod__ __rmul__ __ror__ __round__ __rpow__ __rrshift__
             __rshift__ __rsub__ __rtruediv__ __rxor__ __set__ __set_name__ __setattr__ __setitem__ __setslice__
             __setstate__ __sizeof__ __str__ __sub__ __subclasscheck__ __subclasshook__ __truediv__ __trunc__
             __unicode__ __xor__
             """, .definition),
        ]),
        lineComments: ["#"],
        strings: [
            quote("\"\"\"", multiline: true), quote("'''", multiline: true), quote("\""), quote("'"),
        ],
        stringPrefixes: .python, decorators: true, afterDot: .keywordsOnly)

    // MARK: Shells (POSIX.1-2017 XCU 2.4 reserved words, 2.14 special builtins; bash builtins)

    static let shell = CodeLanguage(
        name: "bash", aliases: ["bash", "sh", "ksh", "zsh", "shell", "openrc"], dialect: .shell,
        words: CodeWordTable([
            ("if then else elif fi case esac for select while until do done in function return break continue", .keyword),
            ("""
             alias bg bind builtin caller cd command compgen complete declare dirs disown echo enable eval exec
             exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf
             pushd pwd read readarray readonly set shift shopt source suspend test time times trap true type
             typeset ulimit umask unalias unset wait
             """, .builtin),
        ]),
        lineComments: ["#"],
        strings: [
            quote("\"", multiline: true, interpolation: .shell), quote("'", escapes: false, multiline: true),
        ])

    static let console = CodeLanguage(
        name: "console", aliases: ["console", "shell-session"], dialect: .console,
        words: CodeWordTable([]), embedded: [shell])

    // MARK: JavaScript and TypeScript (ECMA-262 12.7.2 reserved words; TypeScript handbook)

    private static let javascriptWords: [(String, CodeWordInfo)] = [
        ("""
         for in while do break return continue switch case default if else throw try catch finally yield
         await async of static export import debugger extends super var let const with function class
         typeof instanceof void delete new constructor from as abstract boolean byte char double enum final
         float goto implements int interface long native package private protected public short
         synchronized throws transient volatile
         """, .keyword),
        ("true false null undefined NaN Infinity this", .builtin),
        ("""
         Array ArrayBuffer Atomics BigInt BigInt64Array BigUint64Array Boolean DataView Date Error EvalError
         Float32Array Float64Array Function Int16Array Int32Array Int8Array InternalError Intl JSON Map Math
         Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set String Symbol SyntaxError
         TypeError URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakSet decodeURI
         decodeURIComponent document encodeURI encodeURIComponent eval global globalThis isFinite isNaN
         parseFloat parseInt window
         """, .builtin),
    ]

    private static let javascriptStrings: [Form] = [
        quote("\""), quote("'"), quote("`", multiline: true, interpolation: .dollarBrace),
    ]

    static let javascript = CodeLanguage(
        name: "javascript", aliases: ["javascript", "js", "jsx", "react"],
        words: CodeWordTable(javascriptWords), lineComments: ["//"], blockComments: [("/*", "*/")],
        strings: javascriptStrings, dollarInNames: true, regexLiterals: true, hashbang: true)

    static let typescript = CodeLanguage(
        name: "typescript", aliases: ["typescript", "ts", "tsx"],
        words: CodeWordTable([
            ("declare module readonly type override abstract implements private protected public enum interface", .keyword),
            ("string number boolean", .keyword),
        ] + javascriptWords),
        lineComments: ["//"], blockComments: [("/*", "*/")], strings: javascriptStrings, dollarInNames: true,
        regexLiterals: true, typeAnnotations: true, hashbang: true)

    // MARK: JSON (RFC 8259)

    static let json = CodeLanguage(
        name: "json", aliases: ["json", "json-object"], dialect: .json,
        words: CodeWordTable([("true false null", .builtin)]),
        lineComments: ["//"], blockComments: [("/*", "*/")], strings: [quote("\"")])

    // MARK: C and C++ (ISO/IEC 9899:2018 6.4.1; ISO/IEC 14882:2020 5.11)

    private static let cTypes = """
        bool char double float int long short signed unsigned void _Bool _Complex _BitInt __int128 size_t
        ssize_t off_t wchar_t ptrdiff_t sig_atomic_t fpos_t clock_t time_t va_list jmp_buf FILE DIR div_t ldiv_t
        mbstate_t wctrans_t wint_t wctype_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
        int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t uint_least32_t
        uint_least64_t int_fast8_t int_fast16_t int_fast32_t int_fast64_t uint_fast8_t uint_fast16_t
        uint_fast32_t uint_fast64_t intptr_t uintptr_t intmax_t uintmax_t clockid_t cpu_set_t cpumask_t dev_t
        gid_t id_t ino_t key_t mode_t nfds_t pid_t rlim_t sig_t sighandler_t siginfo_t sigset_t sigval_t
        socklen_t timer_t uid_t atomic_bool atomic_char atomic_int atomic_long atomic_size_t
        """
    private static let cModifiers = "auto const extern inline register restrict static volatile _Atomic _Noreturn _Thread_local __inline __restrict"
    private static let cKeywords = """
        break case continue default do else for goto if return sizeof switch typedef while _Alignas _Alignof
        _Generic _Static_assert asm
        """

    static let c = CodeLanguage(
        name: "c", aliases: ["c"],
        words: CodeWordTable([
            ("struct union", .definer),
            (cTypes, .type), (cModifiers, .type), (cKeywords, .keyword),
            ("enum complex imaginary noreturn countof _Imaginary _Countof typeof typeof_unqual", .keyword),
            ("NULL true false nullptr", .builtin),
        ]),
        lineComments: ["//"], blockComments: [("/*", "*/")], strings: [quote("\"")], stringPrefixes: .cpp,
        callDefinitions: .topLevel, preprocessor: true, characterLiterals: true, signedNumbers: true,
        arrowMembers: true, caseConstants: true)

    static let cpp = CodeLanguage(
        name: "cpp", aliases: ["cpp", "c++"],
        words: CodeWordTable([
            ("struct union enum class concept typename", .definer),
            ("namespace", .binder),
            (cTypes, .type), (cModifiers, .type),
            ("char8_t char16_t char32_t constexpr consteval constinit explicit friend mutable virtual thread_local", .type),
            (cKeywords, .keyword),
            ("""
             alignas alignof and and_eq bitand bitor catch compl concept const_cast co_await co_return co_yield
             decltype delete dynamic_cast export final import module new noexcept not not_eq operator
             or or_eq override private protected public reinterpret_cast requires static_assert static_cast
             template throw try typeid typename using xor xor_eq
             """, .keyword),
            ("NULL true false nullptr this", .builtin),
        ]),
        lineComments: ["//"], blockComments: [("/*", "*/")], strings: [quote("\"")], stringPrefixes: .cpp,
        callDefinitions: .topLevel, preprocessor: true, characterLiterals: true, signedNumbers: true,
        arrowMembers: true, caseConstants: true)

    // MARK: Java (JLS 21, 3.9)

    static let java = CodeLanguage(
        name: "java", aliases: ["java"],
        words: CodeWordTable([
            ("class interface enum record", .definer),
            ("boolean byte char double float int long short void var", .type),
            ("abstract final native private protected public static strictfp synchronized transient volatile default sealed non-sealed", .type),
            ("""
             assert break case catch const continue do else extends finally for goto if implements import
             instanceof new package permits return super switch throw throws try while yield
             """, .keyword),
            ("true false null this", .builtin),
        ]),
        lineComments: ["//"], blockComments: [("/*", "*/")],
        strings: [quote("\"\"\"", multiline: true), quote("\"")], dollarInNames: true,
        decorators: true, dottedDecorators: true, callDefinitions: .anywhere, characterLiterals: true,
        afterDot: .plain)

    // MARK: Go (The Go Programming Language Specification, "Keywords", "Predeclared identifiers")

    static let go = CodeLanguage(
        name: "go", aliases: ["go", "golang"],
        words: CodeWordTable([
            ("""
             break case chan const continue default defer else fallthrough for func go goto if import interface
             map package range return select struct switch type var
             """, .keyword),
            ("""
             any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune
             string uint uint8 uint16 uint32 uint64 uintptr
             """, .keyword),
            ("true false iota nil", .builtin),
            ("append cap clear close complex copy delete imag len make max min new panic print println real recover", .builtin),
        ]),
        lineComments: ["//"], blockComments: [("/*", "*/")],
        strings: [quote("\""), quote("`", escapes: false, multiline: true)], characterLiterals: true,
        afterDot: .plain)

    // MARK: Rust (The Rust Reference, "Keywords"; the standard prelude and macros)

    static let rust = CodeLanguage(
        name: "rust", aliases: ["rust", "rs"],
        words: CodeWordTable([
            ("fn struct enum type union", .definer),
            ("mod", .binder),
            ("let", .keyword),
            ("""
             as async await break box const continue crate dyn else extern for if impl in loop match move mut
             pub ref return static super trait unsafe use where while abstract become do final macro override
             priv typeof unsized virtual yield try
             """, .keyword),
            ("u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 bool char str", .type),
            ("true false self Self", .builtin),
            ("""
             Box String Vec Option Some None Result Ok Err Copy Send Sized Sync Unpin Drop Fn FnMut FnOnce
             ToOwned Clone PartialEq PartialOrd Eq Ord AsRef AsMut Into From Default Iterator Extend
             IntoIterator DoubleEndedIterator ExactSizeIterator ToString drop
             """, CodeWordInfo(role: .builtin, declarator: true)),
        ]),
        lineComments: ["//"], blockComments: [("/*", "*/")], commentsNest: true,
        strings: [quote("\"", multiline: true)], stringPrefixes: .rust,
        macros: true, hashAttributes: true, characterLiterals: true, lifetimes: true,
        macroNames: CodeWordTable([("""
            asm assert assert_eq assert_ne cfg column compile_error concat concat_idents dbg debug_assert
            debug_assert_eq debug_assert_ne env eprint eprintln file format format_args format_args_nl
            global_asm include include_bytes include_str line llvm_asm log_syntax macro_rules matches
            module_path option_env panic print println stringify thread_local todo trace_macros
            unimplemented unreachable vec write writeln
            """, .definition)]),
        typeAfterColon: true)

    // MARK: SQL (the keywords of ISO/IEC 9075 and PostgreSQL that Pygments' SQL lexer knows, and
    // the standard's types)

    static let sql = CodeLanguage(
        name: "sql", aliases: ["sql"],
        words: CodeWordTable(ignoresCase: true, [
            ("""
             abort abs absolute access add admin after alias all allocate alter analyze and any are
             as asc assertion assignment at atomic avg backward before begin between both by c
             cache call called cascade case cast chain characteristics check class close column
             comment commit committed completion connect connection constraint constraints
             constructor contains continue conversion convert copy corresponding count create cross
             cube current current_timestamp cursor cycle data database day default defaults
             deferred defined delete desc describe descriptor destroy diagnostics dictionary
             distinct do domain drop dynamic each else encoding encrypted end equals escape every
             except exception exclusive exec execute existing exists explain external extract false
             fetch final first for force foreign forward found free freeze from full function g
             general generated get global go goto granted group grouping handler having hierarchy
             hold host identity if ignore immediate immediately immutable implementation in
             including increment index initialize initially inner input insert instead intersect
             into is isolation iterate join key language large last leading left length less level
             like limit listen load local location lock lower map match max method min minute mod
             mode modify month more move names national natural new next no none not nothing notify
             notnull null object of off offset old on only open operation operator option options
             or order out outer output owner parameter parameters partial period placing position
             precision prefix prepare preserve primary prior public read reads recursive ref
             references relative rename replace reset restart restrict result return returns right
             role routine row rows rule scale schema scope search second security select sensitive
             session set sets share show similar simple size some source space specific sql stable
             start state statement static statistics stdin stdout storage strict structure sum
             system table template temporary than then time timestamp to toast transaction
             transform translate translation treat trigger trim true truncate trusted type under
             union unique unknown until update usage user using vacuum valid validator values
             variable verbose version versions view when whenever where with without work write
             year zone nchar clob nclob lateral excluding ilike unnest coalesce nullif substring
             current_date localtime localtimestamp
             ada aggregate analyse asensitive asymmetric authorization bitvar bit_length breadth cardinality
             cascaded catalog catalog_name character_length character_set_catalog character_set_name
             character_set_schema char_length checked checkpoint class_origin cluster cobol collate collation
             collation_catalog collation_name collation_schema column_name command_function command_function_code
             condition_number connection_name constraint_catalog constraint_name constraint_schema createdb
             createuser current_path current_role current_time current_user cursor_name datetime_interval_code
             datetime_interval_precision deallocate declare deferrable definer delimiter delimiters deref
             destructor deterministic disconnect dispatch dynamic_function dynamic_function_code elsif fortran
             grant implicit inditcator infix inherits inout insensitive instantiable invoker isnull key_member
             key_type lancompiler locator maxvalue message_length message_octet_length message_text minvalue
             modifies mumps nocreatedb nocreateuser nullable octet_length oids ordinality overlaps overlay
             overriding pad parameter_mode parameter_name parameter_ordinal_position parameter_specific_catalog
             parameter_specific_name parameter_specific_schema pascal pendant pli postfix preceeds preorder
             privileges procedural procedure recheck referencing reindex repeatable returned_length
             returned_octet_length returned_sqlstate revoke rollback rollup routine_catalog routine_name
             routine_schema row_count save_point schema_name scroll serializable server_name session_user setof
             specifictype specific_name sqlcode sqlerror sqlexception sqlstate sqlwarninig stype subclass_origin
             sublist succeeds symmetric sysid system_user table_name terminate timezone_hour timezone_minute
             trailing transactions_committed transactions_rolled_back transaction_active transforms
             trigger_catalog trigger_name trigger_schema uncommitted unencrypted unlisten unnamed upper
             user_defined_type_catalog user_defined_type_name user_defined_type_schema versioning volatile
             """, .keyword),
            ("""
             array binary bit blob boolean char character date decimal int integer interval number
             real serial text varchar varying bigint smallint float numeric dec int8 serial8
             """, .builtin),
        ]),
        lineComments: ["--"], blockComments: [("/*", "*/")],
        strings: [quote("'", escapes: false, multiline: true, doubled: true), quote("\"", escapes: false, doubled: true)])

    // MARK: YAML, TOML

    static let yaml = CodeLanguage(
        name: "yaml", aliases: ["yaml", "yml"], dialect: .yaml, words: CodeWordTable([]),
        lineComments: ["#"], strings: [quote("\"", multiline: true), quote("'", escapes: false, multiline: true, doubled: true)])

    static let toml = CodeLanguage(
        name: "toml", aliases: ["toml"], dialect: .toml,
        words: CodeWordTable([("true false inf nan", .builtin)]),
        lineComments: ["#"],
        strings: [
            quote("\"\"\"", multiline: true), quote("'''", escapes: false, multiline: true),
            quote("\""), quote("'", escapes: false),
        ])

    // MARK: Markup and CSS (HTML Living Standard 13; XML 1.0; CSS Syntax Level 3)

    static let css = CodeLanguage(
        name: "css", aliases: ["css"], dialect: .css,
        words: CodeWordTable([
            // Keyword values and the named colours: constants (first: `top` is one as a value).
            ("""
             absolute alternate always auto left right avoid baseline block bold bolder border-box both bottom
             break-all break-word capitalize center circle col-resize collapse column column-reverse
             contain content-box cover crosshair currentColor dashed flex grid decimal default disc dotted
             double ease ease-in ease-in-out ease-out ellipsis end fixed flex-end flex-start forwards
             grab groove hidden horizontal infinite inherit initial inline inline-block inline-flex
             inline-grid inside italic justify large larger lighter line-through linear list-item
             lowercase ltr medium middle monospace move no-repeat none normal not-allowed nowrap oblique
             outset outside overline padding-box pointer pre pre-line pre-wrap relative repeat repeat-x
             repeat-y revert ridge round row row-reverse rtl sans-serif scroll serif small smaller solid
             space-around space-between space-evenly square start static sticky stretch sub super
             table table-cell table-row text thick thin top transparent underline unset uppercase
             vertical visible wait wrap x-large x-small xx-large xx-small cursive fantasy
             aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet
             brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan
             darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta
             darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue
             darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey
             dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray
             green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush
             lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray
             lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
             lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon
             mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue
             mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin
             navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen
             paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple
             rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna
             silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle
             tomato turquoise violet wheat white whitesmoke yellow yellowgreen
             """, .builtin),
            // Properties: keywords, as names and as values (`transition: opacity 1s`).
            ("""
             accent-color align-content align-items align-self all animation animation-delay
             animation-direction animation-duration animation-fill-mode animation-iteration-count
             animation-name animation-play-state animation-timing-function appearance aspect-ratio
             backface-visibility background background-attachment background-blend-mode
             background-clip background-color background-image background-origin background-position
             background-repeat background-size border border-bottom border-bottom-color
             border-bottom-left-radius border-bottom-right-radius border-bottom-style border-bottom-width
             border-collapse border-color border-image border-left border-left-color border-left-style
             border-left-width border-radius border-right border-right-color border-right-style
             border-right-width border-spacing border-style border-top border-top-color
             border-top-left-radius border-top-right-radius border-top-style border-top-width border-width
             bottom box-shadow box-sizing caption-side caret-color clear clip clip-path color column-count
             column-gap column-rule column-width columns content counter-increment counter-reset cursor
             direction display empty-cells fill filter flex flex-basis flex-direction flex-flow flex-grow
             flex-shrink flex-wrap float font font-family font-feature-settings font-size font-style
             font-variant font-weight gap grid grid-area grid-auto-columns grid-auto-flow grid-auto-rows
             grid-column grid-column-end grid-column-gap grid-column-start grid-gap grid-row grid-row-end
             grid-row-gap grid-row-start grid-template grid-template-areas grid-template-columns
             grid-template-rows height hyphens inset isolation justify-content justify-items justify-self
             left letter-spacing line-height list-style list-style-image list-style-position
             list-style-type margin margin-bottom margin-left margin-right margin-top max-height max-width
             min-height min-width mix-blend-mode object-fit object-position opacity order orphans outline
             outline-color outline-offset outline-style outline-width overflow overflow-wrap overflow-x
             overflow-y padding padding-bottom padding-left padding-right padding-top page-break-after
             page-break-before page-break-inside perspective perspective-origin place-content place-items
             place-self pointer-events position quotes resize right row-gap scroll-behavior speak stroke
             stroke-width tab-size table-layout text-align text-decoration text-decoration-color
             text-decoration-line text-decoration-style text-indent text-overflow text-rendering
             text-shadow text-transform top transform transform-origin transform-style
             transition transition-delay transition-duration transition-property
             transition-timing-function unicode-bidi user-select vertical-align visibility white-space
             widows width will-change word-break word-spacing word-wrap writing-mode z-index
             """, .keyword),
        ]),
        blockComments: [("/*", "*/")], strings: [quote("\""), quote("'")], dashInNames: true,
        // The functions CSS defines (the others, a definition).
        macroNames: CodeWordTable([("""
            attr blur brightness calc circle contrast counter counters cubic-bezier drop-shadow ellipse
            grayscale hsl hsla hue-rotate inset invert linear-gradient matrix matrix3d opacity perspective
            polygon radial-gradient rect repeating-linear-gradient repeating-radial-gradient rgb rgba rotate
            rotate3d rotateX rotateY rotateZ saturate scale scale3d scaleX scaleY scaleZ sepia skew skewX
            skewY steps translate translate3d translateX translateY translateZ url
            """, .builtin)]))

    static let html = CodeLanguage(
        name: "html", aliases: ["html"], dialect: .markup, words: CodeWordTable([]),
        embedded: [javascript, css])

    static let xml = CodeLanguage(
        name: "xml", aliases: ["xml"], dialect: .markup, words: CodeWordTable([]))

    // MARK: Diff, Dockerfile

    static let diff = CodeLanguage(name: "diff", aliases: ["diff", "udiff"], dialect: .diff, words: CodeWordTable([]))

    static let dockerfile = CodeLanguage(
        name: "dockerfile", aliases: ["dockerfile", "docker"], dialect: .dockerfile,
        words: CodeWordTable(ignoresCase: true, [
            ("FROM MAINTAINER EXPOSE USER WORKDIR STOPSIGNAL VOLUME", .definer),
            ("RUN CMD ENTRYPOINT SHELL ENV ADD COPY LABEL ARG ONBUILD HEALTHCHECK", .keyword),
        ]),
        embedded: [shell])

    // MARK: Swift (The Swift Programming Language, "Lexical Structure"; standard library names)

    static let swift = CodeLanguage(
        name: "swift", aliases: ["swift"],
        words: CodeWordTable([
            ("func class struct enum protocol extension", .definer),
            ("let var", .binder),
            ("""
             as async await break case catch continue default defer do else fallthrough for guard if in is repeat
             return switch throw try where while associativity convenience dynamic didSet final get indirect
             infix inout lazy left mutating none nonmutating optional override postfix precedence prefix
             Protocol required rethrows right set throws Type unowned weak willSet actor associatedtype deinit
             import init internal operator private public static subscript typealias
             """, .keyword),
            ("_ self Self super true false nil dynamicType", .builtin),
            ("""
             @availability @autoclosure @noreturn @NSApplicationMain @NSCopying @NSManaged @objc
             @UIApplicationMain @IBAction @IBDesignable @IBInspectable @IBOutlet
             """, .keyword),
            ("""
             Array AnyObject Any AnyClass Bool Character ClosedInterval ContiguousArray Dictionary Double Float
             Float32 Float64 Float80 Int Int8 Int16 Int32 Int64 UInt UInt8 UInt16 UInt32 UInt64 Optional Range
             Slice StaticString String UnicodeScalar UnsafePointer UnsafeMutablePointer UnsafeBufferPointer
             UnsafeMutableBufferPointer Void Comparable Equatable Hashable Selector ObjectIdentifier Unmanaged
             abs advance assert assertionFailure contains count debugPrint distance dropFirst dropLast dump
             enumerate equal extend fatalError filter find first indices insert isEmpty join last lazy map max
             min numericCast overlaps partition precondition preconditionFailure print println reduce reflect
             removeAll removeLast removeRange reverse sizeof sort sorted splice split startsWith stride strideof
             suffix swap toString transcode unsafeBitCast withUnsafePointer withUnsafeMutablePointer withVaList
             """, .builtin),
        ]),
        lineComments: ["//"], blockComments: [("/*", "*/")], commentsNest: true,
        strings: [quote("\"\"\"", multiline: true, interpolation: .backslashParen), quote("\"", interpolation: .backslashParen)],
        importDefinitions: true, cocoa: true)

    // MARK: Ruby (Ruby 3.3 doc/keywords.rdoc; Kernel, Module methods)

    static let ruby = CodeLanguage(
        name: "ruby", aliases: ["ruby", "rb", "duby"],
        words: CodeWordTable([
            ("class", .definer),
            ("""
             BEGIN END alias and begin break case def defined? do else elsif end ensure for if in module next not or redo
             rescue retry return super then undef unless until when while yield __FILE__ __LINE__ __method__
             loop raise private protected public
             """, .keyword),
            ("nil true false", .keyword),
            ("self", .builtin),
            ("""
             puts print p pp require require_relative attr_accessor attr_reader attr_writer include extend
             prepend lambda proc format sprintf printf gets block_given? catch throw sleep rand srand exit abort
             at_exit binding caller fail freeze frozen? instance_variable_get instance_variable_set
             respond_to? send public_send define_method method_missing module_function attr warn
             select open method gsub sub chomp chop
             """, .builtin),
        ]),
        lineComments: ["#"],
        strings: [quote("\"", multiline: true, interpolation: .hashBrace), quote("'", multiline: true), quote("`", multiline: true)],
        bangInNames: true, regexLiterals: true, afterDot: .plain, symbols: true, ruby: true)

    // MARK: PHP (PHP Manual, "List of Keywords", "Predefined Constants")

    static let php = CodeLanguage(
        name: "php", aliases: ["php", "php3", "php4", "php5"],
        words: CodeWordTable(ignoresCase: true, [
            ("function class interface trait enum", .definer),
            ("const", .constantBinder),
            ("""
             abstract and array as break callable case catch clone const continue declare default do echo else
             elseif empty enddeclare endfor endforeach endif endswitch endwhile eval exit extends final finally
             for foreach global goto if implements include include_once instanceof insteadof isset list match
             namespace new or print private protected public readonly require require_once return static switch
             throw try unset use var while xor yield die true false null
             """, .keyword),
        ], exactGroups: [
            ("""
             array_filter array_map array_merge array_keys array_values array_key_exists array_push array_pop
             array_search array_slice array_splice array_unique array_reverse count strlen str_replace
             str_contains str_starts_with substr strpos strtolower strtoupper trim explode implode sprintf printf
             json_encode json_decode in_array is_array is_string is_int is_numeric isset intval floatval strval
             htmlspecialchars date time mktime strtotime file_get_contents file_put_contents fopen fclose fwrite
             fread preg_match preg_replace preg_split var_dump print_r extension_loaded define defined
             function_exists class_exists method_exists sort usort ksort round floor ceil abs max min rand
             mt_rand uniqid md5 sha1 hash password_hash password_verify header session_start setcookie
             filter_var ucfirst lcfirst ucwords nl2br number_format range compact extract
             get_class get_called_class get_parent_class get_object_vars is_object is_callable is_null is_bool
             is_float call_user_func call_user_func_array func_get_args spl_autoload_register array_key_first
             array_key_last array_combine array_fill array_flip array_column array_sum iterator_to_array
             """, .builtin),
        ]),
        lineComments: ["//", "#"], blockComments: [("/*", "*/")],
        strings: [quote("\"", multiline: true, interpolation: .php), quote("'", multiline: true)],
        dollarVariables: true, afterDot: .plain, phpTags: true, arrowMembers: true)

    // MARK: Kotlin (Kotlin language specification, "Keywords and operators")

    static let kotlin = CodeLanguage(
        name: "kotlin", aliases: ["kotlin"],
        words: CodeWordTable([
            ("fun class interface object", .definer),
            ("val var", .binder),
            ("""
             as break by catch constructor continue do dynamic else finally get for if init in is out reified
             return set super throw try typealias typeof vararg when where while import package
             """, .keyword),
            ("""
             actual abstract annotation companion const crossinline data enum expect external final infix
             inline inner internal lateinit noinline open operator override private protected public sealed
             suspend tailrec value
             """, .modifier),
            ("Boolean Byte Char Double Float Int Long Short String Any Unit", .type),
            ("true false null this it", .builtin),
        ]),
        lineComments: ["//"], blockComments: [("/*", "*/")], commentsNest: false,
        strings: [
            quote("\"\"\"", escapes: false, multiline: true, interpolation: .dollarBrace),
            quote("\"", interpolation: .dollarBrace),
        ],
        decorators: true, dottedDecorators: true, characterLiterals: true, afterDot: .plain, receivers: true)

    // MARK: The list

    static let all: [CodeLanguage] = [
        python, shell, console, javascript, typescript, json, c, cpp, java, go, rust, sql, yaml, html, xml, css,
        diff, swift, ruby, php, kotlin, dockerfile, toml,
    ]

    /// The language an alias names; only that language's tables are built (each on first use).
    static func named(_ alias: String) -> CodeLanguage? {
        switch alias {
        case "python", "py", "python3", "py3", "pyi", "sage", "bazel", "starlark": python
        case "bash", "sh", "ksh", "zsh", "shell", "openrc": shell
        case "console", "shell-session": console
        case "javascript", "js", "jsx", "react": javascript
        case "typescript", "ts", "tsx": typescript
        case "json", "json-object": json
        case "c": c
        case "cpp", "c++": cpp
        case "java": java
        case "go", "golang": go
        case "rust", "rs": rust
        case "sql": sql
        case "yaml", "yml": yaml
        case "html": html
        case "xml": xml
        case "css": css
        case "diff", "udiff": diff
        case "swift": swift
        case "ruby", "rb", "duby": ruby
        case "php", "php3", "php4", "php5": php
        case "kotlin": kotlin
        case "dockerfile", "docker": dockerfile
        case "toml": toml
        default: nil
        }
    }
}
