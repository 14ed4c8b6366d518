//! Tests leave no key dir behind: a context made on a bare temp dir gets its keys in the
//! sibling `<temp dir>.keys` (the product's rule for a data dir of its own, docs/encryption.md),
//! and `common::tempdir()` removes that sibling with the temp dir.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use minne::ContextName;

#[test]
fn a_temp_data_dir_takes_its_sibling_key_dir_with_it() {
    let dir = common::tempdir();
    let data = dir.path().to_path_buf();
    let name = ContextName::new("scratch").unwrap();
    minne::context::create_context(&data, &name).unwrap();

    // Worked out from the rule, not from the code under test: `/tmp/.tmpX` → `/tmp/.tmpX.keys`.
    let mut sibling = data.file_name().unwrap().to_os_string();
    sibling.push(".keys");
    let keys = data.with_file_name(sibling);
    assert!(
        keys.join("scratch.key").is_file(),
        "a context on a bare temp dir keeps its key file beside it, outside the temp dir"
    );

    drop(dir);
    assert!(!data.exists(), "the temp dir is gone");
    assert!(
        !keys.exists(),
        "and its sibling key dir with it: {} was left behind",
        keys.display()
    );
}
