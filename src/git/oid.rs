//! [`Oid`]: a git object id (a commit, a blob), the one type every id crosses module boundaries as.
//! Printed, stored and serialised as lowercase hex — 40 digits in a SHA-1 repository, 64 in a
//! SHA-256 one ([`ObjectFormat`]) — and parsed strictly (the full form only).

use std::fmt;
use std::str::FromStr;

use super::GitError;

/// The hash function of a repository's object ids: SHA-1 (git's default) or SHA-256
/// (`git init --object-format=sha256`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ObjectFormat {
    #[default]
    Sha1,
    Sha256,
}

impl ObjectFormat {
    pub(crate) fn kind(self) -> gix::hash::Kind {
        match self {
            ObjectFormat::Sha1 => gix::hash::Kind::Sha1,
            ObjectFormat::Sha256 => gix::hash::Kind::Sha256,
        }
    }

    pub(crate) fn of(kind: gix::hash::Kind) -> ObjectFormat {
        match kind {
            gix::hash::Kind::Sha256 => ObjectFormat::Sha256,
            _ => ObjectFormat::Sha1,
        }
    }
}

/// A git object id: a commit, a tree or a blob.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Oid(gix::ObjectId);

impl Oid {
    /// Parse the full hexadecimal form (as `git rev-parse` prints it): 40 digits (SHA-1) or 64
    /// (SHA-256).
    pub fn parse(hex: &str) -> Result<Oid, GitError> {
        let full = [gix::hash::Kind::Sha1, gix::hash::Kind::Sha256]
            .iter()
            .any(|kind| kind.len_in_hex() == hex.len());
        if !full {
            return Err(GitError::InvalidCommitId(hex.to_owned()));
        }
        gix::ObjectId::from_hex(hex.as_bytes())
            .map(Oid)
            .map_err(|_| GitError::InvalidCommitId(hex.to_owned()))
    }

    /// The id as lowercase hex.
    pub fn to_hex(&self) -> String {
        self.0.to_string()
    }

    /// The first 12 hex digits, for people (`git log --abbrev=12`).
    pub fn short(&self) -> String {
        let mut hex = self.to_hex();
        hex.truncate(12);
        hex
    }

    pub(crate) fn inner(&self) -> gix::ObjectId {
        self.0
    }
}

impl From<gix::ObjectId> for Oid {
    fn from(id: gix::ObjectId) -> Oid {
        Oid(id)
    }
}

impl fmt::Display for Oid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Oid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Oid({})", self.0)
    }
}

impl FromStr for Oid {
    type Err = GitError;
    fn from_str(hex: &str) -> Result<Oid, GitError> {
        Oid::parse(hex)
    }
}

impl serde::Serialize for Oid {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Oid {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Oid, D::Error> {
        let hex = String::deserialize(deserializer)?;
        Oid::parse(&hex).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_only_the_full_form_and_prints_it_back() {
        let hex = "0123456789abcdef0123456789abcdef01234567";
        let oid = Oid::parse(hex).expect("valid");
        assert_eq!(oid.to_string(), hex);
        assert_eq!(
            serde_json::to_string(&oid).expect("json"),
            format!("\"{hex}\"")
        );
        assert!(Oid::parse("0123456").is_err());
        let sha256 = "0123456789abcdef".repeat(4);
        assert_eq!(Oid::parse(&sha256).expect("sha256").to_hex(), sha256);
        assert!(Oid::parse(&"0".repeat(48)).is_err());
        assert!(Oid::parse(&"z".repeat(40)).is_err());
    }
}
