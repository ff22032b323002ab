//! A member's callee as a typed value ([`Callee`]): one variant per way a call reaches its target,
//! and the one place that writes it to and reads it from the update cache's text (`Display` and
//! [`FromStr`]). Everything else matches on the enum.
//!
//! The cache's words, one per callee (every name and receiver an identifier: letters, digits,
//! `_`, `$`, so none holds a mark):
//!
//! | variant | written as | e.g. |
//! |---|---|---|
//! | [`Callee::Bare`] | `name` | `helper(x)` → `helper` |
//! | [`Callee::OwnObject`] | `^name` | `self.go()`, `this.json(x)`, `Self::new()` → `^go` |
//! | [`Callee::Receiver`] | `.name@receiver`, `.name` | `current_app.make_response()` → `.make_response@current_app`; `f().x()` → `.x` |
//! | [`Callee::TypedReceiver`] | `.name:Type` | `rt.block_on()` with `rt: &Runtime` → `.block_on:Runtime` |
//! | [`Callee::TypePath`] | `Type.name` | `Vec::new()`, Java `Math.max()`, `new Circle()` → `Circle.Circle` |
//! | [`Callee::Package`] | `package/Name` | Go `errors.New()` with `errors` imported → `errors/New` |

use std::fmt;
use std::str::FromStr;

/// How one call of a member reaches its target, and the target's final identifier.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// A bare name (`helper(x)`): a free function of the file, an imported one, or the member
    /// itself when it recurses — never a method.
    Bare(String),
    /// Through the member's own object: `self`/`this`/`cls`/`Self`/`super`, the member's
    /// container (its class, `impl` type, CommonJS object such as `res`), a Go method's receiver,
    /// a bare Java call — a method of the member's type or its bases.
    OwnObject(String),
    /// Through another object (`current_app.make_response(…)`): the receiver's final identifier
    /// when it is a plain path (`current_app`), `None` for any other expression (`f().x()`).
    Receiver {
        name: String,
        receiver: Option<String>,
    },
    /// Through an object whose type a declaration states (`source::calls::typed`: `rt:
    /// &Runtime`, `ctx = self.request_context(…)` with `-> AppContext`): the type's final
    /// identifier.
    TypedReceiver { name: String, ty: String },
    /// A path naming a type: Rust `Type::name()` on a capitalised path, a Java static call
    /// `Type.name()`, a Java constructor `new Type(…)` (`Type.Type`).
    TypePath { ty: String, name: String },
    /// A Go package-qualified call (`errors.New(…)`): the receiver is a package the file
    /// imports, by the name it is used under.
    Package { package: String, name: String },
}

/// Marks a callee reached through the member's own object: `^name`.
const OWN_OBJECT_MARK: char = '^';
/// Starts a callee reached through another object: `.name`.
const RECEIVER_MARK: char = '.';
/// Separates a named receiver: `.name@receiver`.
const RECEIVER_NAME: char = '@';
/// Separates a receiver's stated type: `.name:Type`.
const RECEIVER_TYPE: char = ':';
/// Separates a Go package from its function: `package/Name`.
const PACKAGE_SEPARATOR: char = '/';
/// Separates a type from its member: `Type.name`.
const TYPE_SEPARATOR: char = '.';

impl Callee {
    /// A call of `name` through a dotted receiver path, by the path's last word (Java's and
    /// Kotlin's rule): a capitalised word is a type (`Files.copy(…)` → `Files.copy`), anything
    /// else — or no plain path — a receiver (`out.write(…)`).
    pub fn through_path(name: &str, last: Option<&str>) -> Callee {
        match last {
            Some(ty) if ty.starts_with(|c: char| c.is_ascii_uppercase()) => Callee::TypePath {
                ty: ty.to_string(),
                name: name.to_string(),
            },
            _ => Callee::Receiver {
                name: name.to_string(),
                receiver: last.map(str::to_string),
            },
        }
    }

    /// The callee's final identifier (`make_response` of `current_app.make_response(…)`).
    pub fn name(&self) -> &str {
        match self {
            Callee::Bare(name)
            | Callee::OwnObject(name)
            | Callee::Receiver { name, .. }
            | Callee::TypedReceiver { name, .. }
            | Callee::TypePath { name, .. }
            | Callee::Package { name, .. } => name,
        }
    }

    /// Whether the call may land in the member's own file without an import: a bare name or one
    /// through the member's own object.
    pub fn is_own(&self) -> bool {
        match self {
            Callee::Bare(_) | Callee::OwnObject(_) => true,
            Callee::Receiver { .. }
            | Callee::TypedReceiver { .. }
            | Callee::TypePath { .. }
            | Callee::Package { .. } => false,
        }
    }

    /// The word a call through something other than the member's own object goes through: the
    /// receiver's name, its stated type or the Go package; `None` for an own call, a type path
    /// and a receiver that is no plain path.
    pub fn receiver(&self) -> Option<&str> {
        match self {
            Callee::Receiver { receiver, .. } => receiver.as_deref(),
            Callee::TypedReceiver { ty, .. } => Some(ty),
            Callee::Package { package, .. } => Some(package),
            Callee::Bare(_) | Callee::OwnObject(_) | Callee::TypePath { .. } => None,
        }
    }
}

impl fmt::Display for Callee {
    /// The cache's word for the callee (see the module doc).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Callee::Bare(name) => write!(f, "{name}"),
            Callee::OwnObject(name) => write!(f, "{OWN_OBJECT_MARK}{name}"),
            Callee::Receiver {
                name,
                receiver: None,
            } => write!(f, "{RECEIVER_MARK}{name}"),
            Callee::Receiver {
                name,
                receiver: Some(receiver),
            } => write!(f, "{RECEIVER_MARK}{name}{RECEIVER_NAME}{receiver}"),
            Callee::TypedReceiver { name, ty } => {
                write!(f, "{RECEIVER_MARK}{name}{RECEIVER_TYPE}{ty}")
            }
            Callee::TypePath { ty, name } => write!(f, "{ty}{TYPE_SEPARATOR}{name}"),
            Callee::Package { package, name } => write!(f, "{package}{PACKAGE_SEPARATOR}{name}"),
        }
    }
}

/// A cache word that is no callee: empty, or a mark with an empty name or receiver.
#[derive(Debug, PartialEq, Eq)]
pub struct NotACallee;

impl FromStr for Callee {
    type Err = NotACallee;

    /// Undo `Display` (see the module doc).
    fn from_str(word: &str) -> Result<Callee, NotACallee> {
        let part = |text: &str| match text.is_empty() {
            true => Err(NotACallee),
            false => Ok(text.to_string()),
        };
        let pair = |(first, second): (&str, &str)| Ok((part(first)?, part(second)?));
        if let Some(name) = word.strip_prefix(OWN_OBJECT_MARK) {
            return Ok(Callee::OwnObject(part(name)?));
        }
        if let Some(rest) = word.strip_prefix(RECEIVER_MARK) {
            if let Some(split) = rest.split_once(RECEIVER_NAME) {
                let (name, receiver) = pair(split)?;
                return Ok(Callee::Receiver {
                    name,
                    receiver: Some(receiver),
                });
            }
            if let Some(split) = rest.split_once(RECEIVER_TYPE) {
                let (name, ty) = pair(split)?;
                return Ok(Callee::TypedReceiver { name, ty });
            }
            return Ok(Callee::Receiver {
                name: part(rest)?,
                receiver: None,
            });
        }
        if let Some(split) = word.split_once(PACKAGE_SEPARATOR) {
            let (package, name) = pair(split)?;
            return Ok(Callee::Package { package, name });
        }
        if let Some(split) = word.split_once(TYPE_SEPARATOR) {
            let (ty, name) = pair(split)?;
            return Ok(Callee::TypePath { ty, name });
        }
        Ok(Callee::Bare(part(word)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn receiver(name: &str, receiver: Option<&str>) -> Callee {
        Callee::Receiver {
            name: name.into(),
            receiver: receiver.map(Into::into),
        }
    }

    /// Every variant, with the characters an identifier may hold (`$`, `_`, digits, letters
    /// beyond ASCII), is written as its word and read back as itself.
    #[test]
    fn every_variant_round_trips_through_its_word() {
        let cases = [
            (Callee::Bare("helper".into()), "helper"),
            (Callee::Bare("$_1".into()), "$_1"),
            (Callee::OwnObject("make_response".into()), "^make_response"),
            (Callee::OwnObject("größe".into()), "^größe"),
            (receiver("send", Some("tx")), ".send@tx"),
            (receiver("$get", Some("$scope")), ".$get@$scope"),
            (receiver("put", None), ".put"),
            (
                Callee::TypedReceiver {
                    name: "block_on".into(),
                    ty: "Runtime".into(),
                },
                ".block_on:Runtime",
            ),
            (
                Callee::TypePath {
                    ty: "Vec".into(),
                    name: "new".into(),
                },
                "Vec.new",
            ),
            (
                Callee::TypePath {
                    ty: "Circle".into(),
                    name: "Circle".into(),
                },
                "Circle.Circle",
            ),
            (
                Callee::Package {
                    package: "errors".into(),
                    name: "New".into(),
                },
                "errors/New",
            ),
            (
                Callee::Package {
                    package: "v_2".into(),
                    name: "Ünicode".into(),
                },
                "v_2/Ünicode",
            ),
        ];
        for (callee, word) in cases {
            assert_eq!(callee.to_string(), word);
            assert_eq!(word.parse::<Callee>(), Ok(callee), "{word}");
        }
    }

    #[test]
    fn words_with_an_empty_part_are_no_callees() {
        for word in [
            "",
            "^",
            ".",
            ".@tx",
            ".send@",
            ".:Runtime",
            ".x:",
            "/New",
            "errors/",
            "Vec.",
        ] {
            assert_eq!(word.parse::<Callee>(), Err(NotACallee), "{word}");
        }
    }

    #[test]
    fn accessors_tell_the_name_the_receiver_and_ownness() {
        let typed = Callee::TypedReceiver {
            name: "block_on".into(),
            ty: "Runtime".into(),
        };
        assert_eq!(
            (typed.name(), typed.receiver(), typed.is_own()),
            ("block_on", Some("Runtime"), false)
        );
        let own = Callee::OwnObject("go".into());
        assert_eq!(
            (own.name(), own.receiver(), own.is_own()),
            ("go", None, true)
        );
        let path = Callee::TypePath {
            ty: "Vec".into(),
            name: "new".into(),
        };
        assert_eq!((path.name(), path.receiver()), ("new", None));
        let package = Callee::Package {
            package: "errors".into(),
            name: "New".into(),
        };
        assert_eq!(package.receiver(), Some("errors"));
        assert_eq!(receiver("x", None).receiver(), None);
    }
}
