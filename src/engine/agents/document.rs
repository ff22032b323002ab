//! The agent configuration files Lexibrarian merges into — `.mcp.json`, `.cursor/mcp.json`,
//! `.claude/settings.json` (JSON) and `.codex/config.toml` (TOML) — as documents that change only
//! where Lexibrarian adds or removes its own entry.
//!
//! JSON keeps its key order and the file's indentation (serde_json's own map would sort every key of
//! a user's settings); JSON has no comments, and a file that does not parse as JSON (JSONC with
//! comments, a typo) is refused with its line and column, never rewritten. TOML goes through
//! `toml_edit`, so comments, ordering and formatting around our table are kept.
//!
//! Entries are addressed by a path of keys: a *member* is the value at a path (`mcpServers` →
//! `lexibrarian`); an *item* is one element of the array at a path (`hooks` → `SessionStart`).
//! Values cross this boundary as `serde_json::Value`, compared semantically (key order ignored).

use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// Which syntax a file uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Json,
    Toml,
}

impl Syntax {
    /// The syntax of `rel`, from its extension.
    pub fn of(rel: &str) -> Syntax {
        if rel.ends_with(".toml") {
            Syntax::Toml
        } else {
            Syntax::Json
        }
    }
}

/// A parsed configuration file.
pub enum Document {
    Json(JsonDoc),
    Toml(toml_edit::DocumentMut),
}

impl Document {
    /// Parse `text` (empty for a file that does not exist yet). `rel` names it in errors.
    pub fn parse(rel: &str, text: &str) -> anyhow::Result<Document> {
        match Syntax::of(rel) {
            Syntax::Json => JsonDoc::parse(text)
                .map(Document::Json)
                .map_err(|err| anyhow::anyhow!("{rel}: {err}")),
            Syntax::Toml => text
                .parse::<toml_edit::DocumentMut>()
                .map(Document::Toml)
                .map_err(|err| anyhow::anyhow!("{rel}: not valid TOML: {err}")),
        }
    }

    /// The file's new text.
    pub fn render(&self) -> String {
        match self {
            Document::Json(doc) => doc.render(),
            Document::Toml(doc) => doc.to_string(),
        }
    }

    /// Whether nothing is left in it (an empty object or table).
    pub fn is_empty(&self) -> bool {
        match self {
            Document::Json(doc) => matches!(&doc.root, Json::Object(members) if members.is_empty()),
            Document::Toml(doc) => doc.as_table().is_empty(),
        }
    }

    /// The value at `path`, if any.
    pub fn get(&self, path: &[String]) -> Option<Value> {
        match self {
            Document::Json(doc) => doc.root.at(path).map(Json::to_value),
            Document::Toml(doc) => toml_at(doc.as_item(), path).and_then(toml_to_value),
        }
    }

    /// Set the member at `path` to `value`, creating the objects (tables) on the way. Returns how
    /// many leading components of the path's parent existed before (for removing exactly what was
    /// added). An error when something on the way is not an object.
    pub fn set(&mut self, rel: &str, path: &[String], value: &Json) -> anyhow::Result<usize> {
        match self {
            Document::Json(doc) => doc.set(rel, path, value.clone()),
            Document::Toml(doc) => toml_set(doc, rel, path, value),
        }
    }

    /// Remove the member at `path`, then the objects on the way that are left empty, down to the
    /// `existed` first ones (which were there before).
    pub fn remove(&mut self, path: &[String], existed: usize) {
        match self {
            Document::Json(doc) => doc.remove(path, existed),
            Document::Toml(doc) => toml_remove(doc, path, existed),
        }
    }

    /// Append `value` to the array at `path` (created, with the objects on the way, if missing).
    /// Returns how many leading components of `path` existed before.
    pub fn push(&mut self, rel: &str, path: &[String], value: &Json) -> anyhow::Result<usize> {
        match self {
            Document::Json(doc) => doc.push(rel, path, value.clone()),
            Document::Toml(_) => anyhow::bail!("{rel}: array items are only written to JSON files"),
        }
    }

    /// Replace the first element of the array at `path` equal to `old` with `new`; whether one was.
    pub fn replace_item(&mut self, path: &[String], old: &Value, new: &Json) -> bool {
        match self {
            Document::Json(doc) => doc.replace_item(path, old, new.clone()),
            Document::Toml(_) => false,
        }
    }

    /// Remove the first element of the array at `path` equal to `value`, then the containers left
    /// empty down to the `existed` first path components; whether one was removed.
    pub fn remove_item(&mut self, path: &[String], value: &Value, existed: usize) -> bool {
        match self {
            Document::Json(doc) => doc.remove_item(path, value, existed),
            Document::Toml(_) => false,
        }
    }
}

/// A JSON value that keeps object members in file order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parse JSON text, keeping member order (for the values Lexibrarian writes, which read best
    /// in a fixed order: `type` before `command`).
    pub fn parse(text: &str) -> Result<Json, serde_json::Error> {
        serde_json::from_str(text)
    }

    pub fn from_value(value: &Value) -> Json {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n.clone()),
            Value::String(s) => Json::String(s.clone()),
            Value::Array(items) => Json::Array(items.iter().map(Json::from_value).collect()),
            Value::Object(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), Json::from_value(v)))
                    .collect(),
            ),
        }
    }

    /// The same value as `serde_json::Value` (member order lost), for comparisons and the record.
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.clone()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
        }
    }

    fn member(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn member_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(members) => members.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn at(&self, path: &[String]) -> Option<&Json> {
        path.iter().try_fold(self, |node, key| node.member(key))
    }

    fn at_mut(&mut self, path: &[String]) -> Option<&mut Json> {
        path.iter().try_fold(self, |node, key| node.member_mut(key))
    }

    fn is_empty_container(&self) -> bool {
        match self {
            Json::Object(members) => members.is_empty(),
            Json::Array(items) => items.is_empty(),
            _ => false,
        }
    }
}

/// A JSON file: its value and how it was indented.
pub struct JsonDoc {
    root: Json,
    indent: String,
}

impl JsonDoc {
    /// Parse `text`; blank text is an empty object. The top level must be an object.
    pub fn parse(text: &str) -> Result<JsonDoc, String> {
        let root = if text.trim().is_empty() {
            Json::Object(Vec::new())
        } else {
            serde_json::from_str::<Json>(text).map_err(|err| {
                format!(
                    "not valid JSON ({err}); comments and trailing commas are not JSON — fix the file, or add Lexibrarian's entry by hand"
                )
            })?
        };
        if !matches!(root, Json::Object(_)) {
            return Err("the top level is not a JSON object".to_string());
        }
        Ok(JsonDoc {
            root,
            indent: detect_indent(text),
        })
    }

    /// Pretty JSON in the file's indentation, with a final newline.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(self.indent.as_bytes());
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
        // Serialising our own tree into memory cannot fail.
        let _ = serde::Serialize::serialize(&self.root, &mut serializer);
        let mut text = String::from_utf8(out).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Walk to the parent of a member at `path`, creating objects; how many existed.
    fn parent_mut(
        &mut self,
        rel: &str,
        path: &[String],
    ) -> anyhow::Result<(&mut Vec<(String, Json)>, usize)> {
        let mut node = &mut self.root;
        let mut existed = 0;
        let mut still_existing = true;
        for key in path {
            let Json::Object(members) = node else {
                anyhow::bail!(
                    "{rel}: `{}` is not a JSON object, so Lexibrarian cannot add its entry there",
                    path.join(".")
                );
            };
            let index = match members.iter().position(|(k, _)| k == key) {
                Some(index) => {
                    if still_existing {
                        existed += 1;
                    }
                    index
                }
                None => {
                    still_existing = false;
                    members.push((key.clone(), Json::Object(Vec::new())));
                    members.len() - 1
                }
            };
            node = &mut members[index].1;
        }
        match node {
            Json::Object(members) => Ok((members, existed)),
            _ => anyhow::bail!(
                "{rel}: `{}` is not a JSON object, so Lexibrarian cannot add its entry there",
                path.join(".")
            ),
        }
    }

    fn set(&mut self, rel: &str, path: &[String], value: Json) -> anyhow::Result<usize> {
        let Some((key, parent)) = path.split_last() else {
            anyhow::bail!("{rel}: an entry needs a key");
        };
        let (members, existed) = self.parent_mut(rel, parent)?;
        match members.iter_mut().find(|(k, _)| k == key) {
            Some((_, slot)) => *slot = value,
            None => members.push((key.clone(), value)),
        }
        Ok(existed)
    }

    fn remove(&mut self, path: &[String], existed: usize) {
        let Some((key, parent)) = path.split_last() else {
            return;
        };
        if let Some(Json::Object(members)) = self.root.at_mut(parent) {
            members.retain(|(k, _)| k != key);
        }
        self.prune(parent, existed);
    }

    /// Remove the containers along `path` left empty, deepest first, keeping the first `existed`.
    fn prune(&mut self, path: &[String], existed: usize) {
        for depth in (existed + 1..=path.len()).rev() {
            let (key, parent) = match path[..depth].split_last() {
                Some(split) => split,
                None => return,
            };
            let empty = self
                .root
                .at(&path[..depth])
                .is_some_and(Json::is_empty_container);
            if !empty {
                return;
            }
            if let Some(Json::Object(members)) = self.root.at_mut(parent) {
                members.retain(|(k, _)| k != key);
            }
        }
    }

    fn push(&mut self, rel: &str, path: &[String], value: Json) -> anyhow::Result<usize> {
        let Some((key, parent)) = path.split_last() else {
            anyhow::bail!("{rel}: an entry needs a key");
        };
        let (members, mut existed) = self.parent_mut(rel, parent)?;
        let parent_complete = existed == parent.len();
        match members.iter_mut().find(|(k, _)| k == key) {
            Some((_, Json::Array(items))) => {
                if parent_complete {
                    existed += 1;
                }
                items.push(value);
            }
            Some(_) => anyhow::bail!(
                "{rel}: `{}` is not a JSON array, so Lexibrarian cannot add its entry there",
                path.join(".")
            ),
            None => members.push((key.clone(), Json::Array(vec![value]))),
        }
        Ok(existed)
    }

    fn replace_item(&mut self, path: &[String], old: &Value, new: Json) -> bool {
        let Some(Json::Array(items)) = self.root.at_mut(path) else {
            return false;
        };
        match items.iter_mut().find(|item| item.to_value() == *old) {
            Some(item) => {
                *item = new;
                true
            }
            None => false,
        }
    }

    fn remove_item(&mut self, path: &[String], value: &Value, existed: usize) -> bool {
        let Some(Json::Array(items)) = self.root.at_mut(path) else {
            return false;
        };
        let Some(index) = items.iter().position(|item| item.to_value() == *value) else {
            return false;
        };
        items.remove(index);
        self.prune(path, existed);
        true
    }
}

/// The indentation unit of a JSON text: the leading whitespace of its first indented line (two
/// spaces when there is none).
fn detect_indent(text: &str) -> String {
    text.lines()
        .map(|line| {
            let trimmed = line.trim_start_matches([' ', '\t']);
            &line[..line.len() - trimmed.len()]
        })
        .find(|indent| !indent.is_empty())
        .unwrap_or("  ")
        .to_string()
}

impl serde::Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            members.push((key, value));
        }
        Ok(Json::Object(members))
    }
}

fn toml_at<'a>(item: &'a toml_edit::Item, path: &[String]) -> Option<&'a toml_edit::Item> {
    path.iter()
        .try_fold(item, |node, key| node.as_table_like()?.get(key))
}

/// A TOML item as JSON: strings, numbers, booleans, arrays and tables (dates as strings).
fn toml_to_value(item: &toml_edit::Item) -> Option<Value> {
    match item {
        toml_edit::Item::None => None,
        toml_edit::Item::Value(value) => Some(toml_value_to_json(value)),
        toml_edit::Item::Table(table) => Some(Value::Object(
            table
                .iter()
                .filter_map(|(k, v)| Some((k.to_string(), toml_to_value(v)?)))
                .collect(),
        )),
        toml_edit::Item::ArrayOfTables(tables) => Some(Value::Array(
            tables
                .iter()
                .map(|table| {
                    toml_to_value(&toml_edit::Item::Table(table.clone())).unwrap_or(Value::Null)
                })
                .collect(),
        )),
    }
}

fn toml_value_to_json(value: &toml_edit::Value) -> Value {
    match value {
        toml_edit::Value::String(s) => Value::String(s.value().clone()),
        toml_edit::Value::Integer(i) => Value::from(*i.value()),
        toml_edit::Value::Float(f) => {
            serde_json::Number::from_f64(*f.value()).map_or(Value::Null, Value::Number)
        }
        toml_edit::Value::Boolean(b) => Value::Bool(*b.value()),
        toml_edit::Value::Datetime(d) => Value::String(d.value().to_string()),
        toml_edit::Value::Array(items) => {
            Value::Array(items.iter().map(toml_value_to_json).collect())
        }
        toml_edit::Value::InlineTable(table) => Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.to_string(), toml_value_to_json(v)))
                .collect(),
        ),
    }
}

/// A JSON value as a TOML item: objects become tables (inline below the top), arrays arrays.
fn json_to_toml(value: &Json) -> toml_edit::Item {
    match value {
        Json::Object(members) => {
            let mut table = toml_edit::Table::new();
            for (key, value) in members {
                table.insert(key, toml_edit::Item::Value(json_to_toml_value(value)));
            }
            toml_edit::Item::Table(table)
        }
        other => toml_edit::Item::Value(json_to_toml_value(other)),
    }
}

fn json_to_toml_value(value: &Json) -> toml_edit::Value {
    match value {
        Json::Null => toml_edit::Value::from(""),
        Json::Bool(b) => toml_edit::Value::from(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => toml_edit::Value::from(i),
            None => toml_edit::Value::from(n.as_f64().unwrap_or_default()),
        },
        Json::String(s) => toml_edit::Value::from(s.as_str()),
        Json::Array(items) => {
            toml_edit::Value::Array(items.iter().map(json_to_toml_value).collect())
        }
        Json::Object(members) => {
            let mut table = toml_edit::InlineTable::new();
            for (key, value) in members {
                table.insert(key, json_to_toml_value(value));
            }
            toml_edit::Value::InlineTable(table)
        }
    }
}

fn toml_set(
    doc: &mut toml_edit::DocumentMut,
    rel: &str,
    path: &[String],
    value: &Json,
) -> anyhow::Result<usize> {
    let Some((key, parent)) = path.split_last() else {
        anyhow::bail!("{rel}: an entry needs a key");
    };
    let mut table = doc.as_table_mut();
    let mut existed = 0;
    let mut still_existing = true;
    for part in parent {
        if table.contains_key(part) {
            if still_existing {
                existed += 1;
            }
        } else {
            still_existing = false;
            let mut new = toml_edit::Table::new();
            // `[mcp_servers.lexibrarian]` without an empty `[mcp_servers]` header.
            new.set_implicit(true);
            table.insert(part, toml_edit::Item::Table(new));
        }
        table = match table.get_mut(part).and_then(toml_edit::Item::as_table_mut) {
            Some(next) => next,
            None => anyhow::bail!(
                "{rel}: `{}` is not a table, so Lexibrarian cannot add its entry there",
                parent.join(".")
            ),
        };
    }
    table.insert(key, json_to_toml(value));
    Ok(existed)
}

fn toml_remove(doc: &mut toml_edit::DocumentMut, path: &[String], existed: usize) {
    let Some((key, parent)) = path.split_last() else {
        return;
    };
    if let Some(table) = toml_table_mut(doc, parent) {
        table.remove(key);
    }
    for depth in (existed + 1..=parent.len()).rev() {
        let empty = toml_table_mut(doc, &parent[..depth]).is_some_and(|table| table.is_empty());
        if !empty {
            return;
        }
        if let Some((key, above)) = parent[..depth].split_last() {
            if let Some(table) = toml_table_mut(doc, above) {
                table.remove(key);
            }
        }
    }
}

fn toml_table_mut<'a>(
    doc: &'a mut toml_edit::DocumentMut,
    path: &[String],
) -> Option<&'a mut toml_edit::Table> {
    path.iter().try_fold(doc.as_table_mut(), |table, key| {
        table.get_mut(key).and_then(toml_edit::Item::as_table_mut)
    })
}

#[cfg(test)]
mod tests;
