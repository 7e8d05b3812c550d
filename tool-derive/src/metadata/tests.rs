//! The attribute parser on its own: icons and `_meta` as users write them, and the errors.

use super::*;

#[test]
fn meta_keys_follow_mcp_format() {
    assert!(check_meta_key("beta").is_ok());
    assert!(check_meta_key("com.example/level").is_ok());
    assert!(check_meta_key("com.example/a.b-c_d").is_ok());
    assert!(check_meta_key("io.modelcontextprotocol/x").is_err());
    assert!(check_meta_key("dev.mcp/x").is_err());
    assert!(check_meta_key("com.example/-x").is_err());
    assert!(check_meta_key("1com/x").is_err());
    assert!(check_meta_key("").is_err());
}

#[test]
fn sizes() {
    assert!(is_size("48x48") && is_size("any") && is_size("1024x512"));
    assert!(!is_size("48") && !is_size("0x4") && !is_size("48X48") && !is_size("axb"));
}

#[test]
fn icons_and_meta_parse() {
    let (md, err) = parse_standalone(quote!(
        icon = "https://example.com/a.png",
        icon(
            src = "data:image/png;base64,AA",
            sizes = "48x48 any",
            theme = "dark"
        ),
        meta(
            beta = true,
            "com.example/n" = -3,
            ratio = 1.5,
            tags = ["a", "b"]
        )
    ));
    assert!(err.is_none());
    assert_eq!(md.icons.len(), 2);
    assert_eq!(md.icons[1].sizes, ["48x48", "any"]);
    assert_eq!(md.meta.unwrap().value.len(), 4);
}

#[test]
fn bad_icons_and_meta_are_errors() {
    for tokens in [
        quote!(icon = "file:///etc/passwd"),
        quote!(icon(src = "https://e.com/a.png", mime_type = "text/html")),
        quote!(icon(src = "https://e.com/a.png", sizes = "big")),
        quote!(icon(src = "https://e.com/a.png", theme = "blue")),
        quote!(icon(mime_type = "image/png")),
        quote!(meta(a = 1, a = 2)),
        quote!(meta(x = some_fn())),
        quote!(meta = "x"),
        quote!(meta()),
    ] {
        assert!(parse_standalone(tokens.clone()).1.is_some(), "{tokens}");
    }
}

fn parse_standalone(tokens: TokenStream) -> (Metadata, Option<syn::Error>) {
    use syn::parse::Parser;
    let mut cx = Ctxt::default();
    let mut md = Metadata::default();
    let result = syn::meta::parser(|meta| {
        let key = meta_key(&meta);
        md.parse_key(&key, &meta, &mut cx).map(drop)
    })
    .parse2(tokens);
    if let Err(e) = result {
        cx.push(e);
    }
    (md, cx.check().err())
}
