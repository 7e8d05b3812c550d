//! Compile-time checks `#[tool]` emits for parameter types and `Json<T>` results, so that a
//! type missing a trait is reported once, at the user's type, with the fix.
//!
//! Left to itself, a parameter type without `Deserialize` or `JsonSchema` fails deep inside
//! the serde and schemars derives on the generated parameters struct: half a dozen errors
//! naming `serde::de::SeqAccess` and private paths, none pointing to `#[tool_type]`. So:
//!
//! - the macro makes every field that could fail a type parameter of the parameters struct
//!   (the derives then check nothing concrete), and reaches the struct's `Deserialize` and
//!   `JsonSchema` only through [`ParamsProbe`], which falls back to a stub when they are
//!   missing instead of failing;
//! - per such parameter it asks [`ParamCheck`] which of the two traits the type has (autoref
//!   specialization: the first impl whose bounds hold answers, as a marker type) and requires
//!   `Type: ToolParam<Marker>`, implemented only for [`ParamOk`]. That one obligation is the
//!   one error, with this crate's message, at the type's span.
//!
//! `Json<T>` results work the same way with [`OutputCheck`], [`ToolOutput`] and
//! [`ResponseProbe`]. None of this exists at run time: the probes are zero-sized and the
//! chosen methods are the plain calls the macro made before.

use std::marker::PhantomData;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::args::ClosedObjects;
use crate::{IntoToolResponse, ToolErrorCode, ToolResponse};

/// What `#[tool]` requires of a parameter's type, as a trait whose unmet bound reads as the
/// fix: `Type: ToolParam<ParamOk>` holds for every type with serde's `Deserialize` and
/// schemars' `JsonSchema`; for any other the macro asks for `ToolParam<missing::JsonSchema>`
/// (or the other markers), which no type implements. Not for use in your own bounds.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: it needs serde's `Deserialize` and schemars' `JsonSchema`",
    label = "the model's arguments cannot be decoded into this type",
    note = "mark the type `#[tool_core::tool_type]` (no serde or schemars dependency needed), or derive both: `#[derive(serde::Deserialize, schemars::JsonSchema)]`"
)]
#[doc(hidden)]
pub trait ToolParam<Missing> {
    /// Takes the marker [`ParamCheck`] answered with.
    fn check(_: Missing) {}
}

#[diagnostic::do_not_recommend]
impl<T: ?Sized> ToolParam<ParamOk> for T {}

/// Never named by generated code: a second impl keeps `ToolParam<_>` open until the argument
/// fixes it, so the error is the unmet bound, not a type mismatch against `ParamOk`.
#[doc(hidden)]
pub enum NeverMissing {}

#[diagnostic::do_not_recommend]
impl<T: ?Sized> ToolParam<NeverMissing> for T {}

/// What `#[tool]` requires of the `T` in a `Json<T>` result; see [`ToolParam`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned in `Json<{Self}>`: the result is serialized for the model, so it needs serde's `Serialize`",
    label = "this type does not implement `Serialize`",
    note = "mark the type `#[tool_core::tool_type]` (no serde or schemars dependency needed), or derive `#[derive(serde::Serialize, schemars::JsonSchema)]` (`JsonSchema` is optional: it gives the tool an output schema)"
)]
#[doc(hidden)]
pub trait ToolOutput<Missing> {
    /// Takes the marker [`OutputCheck`] answered with.
    fn check(_: Missing) {}
}

#[diagnostic::do_not_recommend]
impl<T: ?Sized> ToolOutput<OutputOk> for T {}

#[diagnostic::do_not_recommend]
impl<T: ?Sized> ToolOutput<NeverMissing> for T {}

/// The parameter type has both traits.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ParamOk;

/// The `Json<T>` result type has `Serialize`.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct OutputOk;

/// What a parameter or result type lacks, as [`ParamCheck`] and [`OutputCheck`] answer: the
/// names the error shows (`ToolParam<tool_core::missing::JsonSchema>` is not implemented for
/// the user's type).
pub mod missing {
    /// The type lacks serde's `Deserialize`.
    #[derive(Debug, Clone, Copy)]
    pub struct Deserialize;
    /// The type lacks schemars' `JsonSchema`.
    #[derive(Debug, Clone, Copy)]
    pub struct JsonSchema;
    /// The type lacks both.
    #[derive(Debug, Clone, Copy)]
    pub struct DeserializeAndJsonSchema;
    /// The type lacks serde's `Serialize`.
    #[derive(Debug, Clone, Copy)]
    pub struct Serialize;
}

/// Which of `Deserialize` and `JsonSchema` `T` has. Generated code calls
/// `(&&&&ParamCheck::<T>::new()).param_check()` with the four `Param*` traits in scope: method
/// lookup tries `&&&ParamCheck<T>` first (both traits), then one reference less at each step.
#[doc(hidden)]
pub struct ParamCheck<T: ?Sized>(PhantomData<fn() -> PhantomData<T>>);

impl<T: ?Sized> ParamCheck<T> {
    #[allow(missing_docs, clippy::new_without_default)]
    pub const fn new() -> Self {
        ParamCheck(PhantomData)
    }
}

macro_rules! tiers {
    ($probe:ident, $method:ident: $($tier:ident for [$($r:tt)*] $probe2:ident<T> where [$($bound:tt)*] => $marker:path;)*) => {$(
        #[doc(hidden)]
        pub trait $tier {
            #[allow(missing_docs)]
            fn $method(&self) -> $marker {
                $marker
            }
        }
        impl<T: $($bound)*> $tier for $($r)* $probe2<T> {}
    )*};
}
tiers! { ParamCheck, param_check:
    ParamBoth for [&&&] ParamCheck<T> where [DeserializeOwned + JsonSchema] => ParamOk;
    ParamNoSchema for [&&] ParamCheck<T> where [DeserializeOwned] => missing::JsonSchema;
    ParamNoDeserialize for [&] ParamCheck<T> where [JsonSchema] => missing::Deserialize;
    ParamNeither for [] ParamCheck<T> where [?Sized] => missing::DeserializeAndJsonSchema;
}

/// Whether the `T` of a `Json<T>` result has `Serialize`: `(&OutputCheck::<T>::new()).output_check()`.
#[doc(hidden)]
pub struct OutputCheck<T: ?Sized>(PhantomData<fn() -> PhantomData<T>>);

impl<T: ?Sized> OutputCheck<T> {
    #[allow(missing_docs, clippy::new_without_default)]
    pub const fn new() -> Self {
        OutputCheck(PhantomData)
    }
}

tiers! { OutputCheck, output_check:
    OutputSerialize for [&] OutputCheck<T> where [Serialize + ?Sized] => OutputOk;
    OutputNoSerialize for [] OutputCheck<T> where [?Sized] => missing::Serialize;
}

/// The parameters struct `P`'s decoder and schema when it has them, a stub otherwise (then a
/// `ToolParam` check has already failed the build, so the stub never runs). Called as
/// `(&ParamsProbe::<P>::new()).decode(..)` with [`ParamsReady`] and [`ParamsMissing`] in scope.
#[doc(hidden)]
pub struct ParamsProbe<P>(PhantomData<fn() -> P>);

impl<P> ParamsProbe<P> {
    #[allow(missing_docs, clippy::new_without_default)]
    pub const fn new() -> Self {
        ParamsProbe(PhantomData)
    }
}

#[doc(hidden)]
pub trait ParamsReady<P> {
    #[allow(missing_docs)]
    fn decode(
        &self,
        tool: &str,
        raw: &str,
        closed: &OnceLock<ClosedObjects>,
    ) -> Result<P, ToolResponse>;
    #[allow(missing_docs)]
    fn schema(&self) -> Value;
}

impl<P: DeserializeOwned + JsonSchema> ParamsReady<P> for ParamsProbe<P> {
    #[inline]
    fn decode(
        &self,
        tool: &str,
        raw: &str,
        closed: &OnceLock<ClosedObjects>,
    ) -> Result<P, ToolResponse> {
        crate::args::decode_tool_arguments::<P>(tool, raw, closed)
    }
    fn schema(&self) -> Value {
        crate::schema::canonical_schema::<P>()
    }
}

#[doc(hidden)]
pub trait ParamsMissing<P> {
    #[allow(missing_docs)]
    fn decode(
        &self,
        tool: &str,
        raw: &str,
        closed: &OnceLock<ClosedObjects>,
    ) -> Result<P, ToolResponse>;
    #[allow(missing_docs)]
    fn schema(&self) -> Value;
}

impl<P> ParamsMissing<P> for &ParamsProbe<P> {
    fn decode(&self, tool: &str, _: &str, _: &OnceLock<ClosedObjects>) -> Result<P, ToolResponse> {
        Err(unbuildable(tool))
    }
    fn schema(&self) -> Value {
        Value::Object(serde_json::Map::new())
    }
}

/// A tool's result `R` converted when it implements [`IntoToolResponse`], a stub otherwise
/// (used only for `Json<T>` results, whose `ToolOutput` check reports the missing trait).
/// Called as `(&ResponseProbe::of(&value)).convert(value)`.
#[doc(hidden)]
pub struct ResponseProbe<R>(PhantomData<fn() -> R>);

impl<R> ResponseProbe<R> {
    #[allow(missing_docs)]
    pub const fn of(_: &R) -> Self {
        ResponseProbe(PhantomData)
    }
}

#[doc(hidden)]
pub trait ResponseReady<R> {
    #[allow(missing_docs)]
    fn convert(&self, value: R) -> ToolResponse;
}

impl<R: IntoToolResponse> ResponseReady<R> for ResponseProbe<R> {
    #[inline]
    fn convert(&self, value: R) -> ToolResponse {
        value.into_tool_response()
    }
}

#[doc(hidden)]
pub trait ResponseMissing<R> {
    #[allow(missing_docs)]
    fn convert(&self, value: R) -> ToolResponse;
}

impl<R> ResponseMissing<R> for &ResponseProbe<R> {
    fn convert(&self, _: R) -> ToolResponse {
        unbuildable("this tool")
    }
}

#[cold]
fn unbuildable(tool: &str) -> ToolResponse {
    ToolResponse::error(
        ToolErrorCode::Unknown,
        format!("'{tool}' was built without the traits its types need"),
    )
}
