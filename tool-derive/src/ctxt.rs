//! Error collection, as serde_derive does it: every problem is recorded with its span and all
//! of them are reported together, so the user fixes everything in one pass.

use std::fmt::Display;

use quote::ToTokens;

#[derive(Default)]
pub struct Ctxt {
    errors: Option<syn::Error>,
}

impl Ctxt {
    pub fn error_spanned_by<T: ToTokens, M: Display>(&mut self, tokens: T, message: M) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub fn error_at<M: Display>(&mut self, span: proc_macro2::Span, message: M) {
        self.push(syn::Error::new(span, message));
    }

    pub fn push(&mut self, error: syn::Error) {
        match &mut self.errors {
            Some(all) => all.combine(error),
            None => self.errors = Some(error),
        }
    }

    pub fn check(self) -> Result<(), syn::Error> {
        match self.errors {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
