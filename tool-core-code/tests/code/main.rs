//! Code mode driven through the public API: programs run by the code tool directly
//! (`sandbox`, `limits`, `hostile`, `calls`), and whole runs over the four HTTP APIs'
//! loopback fakes and `TextMode` (`apis`, `measure`).

mod apis;
mod calls;
mod conformance;
mod fixtures;
mod hostile;
mod http_support;
mod limits;
mod measure;
mod sandbox;
