//! JSON merge patch (RFC 7386), for [`crate::Registry::patch_packument`].

use serde_json::Value;

/// Applies `patch` to `doc`: objects merge key by key, `null` removes a
/// key, anything else replaces.
pub fn apply(doc: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *doc = patch.clone();
        return;
    };
    if !doc.is_object() {
        *doc = Value::Object(Default::default());
    }
    let Value::Object(target) = doc else {
        unreachable!("made an object above")
    };
    for (key, value) in patch {
        if value.is_null() {
            target.remove(key);
        } else {
            apply(target.entry(key.clone()).or_insert(Value::Null), value);
        }
    }
}

/// Folds `next` into the accumulated patch `acc`, so applying `acc` equals
/// applying the earlier patches and then `next`. A `null` in `next` stays a
/// `null` (a deletion), unlike in [`apply`].
pub fn merge_patches(acc: &mut Value, next: Value) {
    match (acc, next) {
        (Value::Object(acc), Value::Object(next)) => {
            for (key, value) in next {
                match acc.get_mut(&key) {
                    Some(existing) if existing.is_object() && value.is_object() => {
                        merge_patches(existing, value)
                    }
                    _ => {
                        acc.insert(key, value);
                    }
                }
            }
        }
        (acc, next) => *acc = next,
    }
}

#[cfg(test)]
mod tests;
