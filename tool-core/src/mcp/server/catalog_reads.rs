//! The catalog's two requests whose functions may ask the client questions, as a tool may:
//! `resources/read` and `prompts/get`, each answered at once or with the questions
//! (`InputRequiredResult` on 2026-07-28 sessions) through the same asking path as a call.

use rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, ReadResourceRequestParams, ReadResourceResponse,
    ResultType,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::asking::Asked;
use super::McpServer;
use crate::mcp::{prompts, resources};

impl McpServer {
    /// `resources/read`, method-not-found when the server has no resources.
    pub(super) async fn read_catalog_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if self.config.capabilities.resources.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::ReadResourceRequestMethod,
            >());
        }
        // The resource's function may ask the client questions, as a tool may.
        let shared = self.shared.clone();
        let uri = request.uri.as_str();
        let state = (
            request.request_state.as_deref(),
            request.input_responses.as_ref(),
        );
        let asked = self
            .asking(
                &context,
                "resources/read",
                uri,
                None,
                state,
                |ctx| async move { resources::read(&shared, uri, &ctx).await },
            )
            .await?;
        Ok(match asked {
            // 2026-07-28 clients require `resultType` (see `results::call_result`).
            Asked::Done(mut result) => {
                result.result_type.get_or_insert(ResultType::COMPLETE);
                result.into()
            }
            Asked::InputRequired(input) => ReadResourceResponse::InputRequired(input),
        })
    }

    /// `prompts/get`, method-not-found when the server has no prompts.
    pub(super) async fn get_catalog_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if self.config.capabilities.prompts.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::GetPromptRequestMethod,
            >());
        }
        // The prompt's function may ask the client questions, as a tool may.
        let shared = self.shared.clone();
        let state = (
            request.request_state.as_deref(),
            request.input_responses.as_ref(),
        );
        let asked = self
            .asking(
                &context,
                "prompts/get",
                &request.name,
                request.arguments.as_ref(),
                state,
                |ctx| {
                    let request = &request;
                    async move { prompts::get(&shared, request, &ctx).await }
                },
            )
            .await?;
        Ok(match asked {
            // 2026-07-28 clients require `resultType` (see `results::call_result`).
            Asked::Done(mut result) => {
                result.result_type.get_or_insert(ResultType::COMPLETE);
                result.into()
            }
            Asked::InputRequired(input) => GetPromptResponse::InputRequired(input),
        })
    }
}
