//! Which official definition a frame is checked against: a method's
//! request or notification type, and the result type of its response, per
//! revision.

use super::Revision;

/// The request or notification definition for `method` in `revision`.
pub(super) fn message_definition(revision: Revision, method: &str) -> Option<&'static str> {
    let both = match method {
        "tools/call" => "CallToolRequest",
        "tools/list" => "ListToolsRequest",
        "resources/list" => "ListResourcesRequest",
        "resources/templates/list" => "ListResourceTemplatesRequest",
        "resources/read" => "ReadResourceRequest",
        "prompts/list" => "ListPromptsRequest",
        "prompts/get" => "GetPromptRequest",
        "completion/complete" => "CompleteRequest",
        "sampling/createMessage" => "CreateMessageRequest",
        "elicitation/create" => "ElicitRequest",
        "roots/list" => "ListRootsRequest",
        "notifications/cancelled" => "CancelledNotification",
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/prompts/list_changed" => "PromptListChangedNotification",
        "notifications/resources/list_changed" => "ResourceListChangedNotification",
        "notifications/resources/updated" => "ResourceUpdatedNotification",
        _ => "",
    };
    if !both.is_empty() {
        return Some(both);
    }
    match (revision, method) {
        (Revision::Legacy, "initialize") => Some("InitializeRequest"),
        (Revision::Legacy, "notifications/initialized") => Some("InitializedNotification"),
        (Revision::Legacy, "ping") => Some("PingRequest"),
        (Revision::Legacy, "logging/setLevel") => Some("SetLevelRequest"),
        (Revision::Legacy, "resources/subscribe") => Some("SubscribeRequest"),
        (Revision::Legacy, "resources/unsubscribe") => Some("UnsubscribeRequest"),
        (Revision::Legacy, "notifications/roots/list_changed") => Some("RootsListChangedNotification"),
        (Revision::Legacy, "notifications/elicitation/complete") => Some("ElicitationCompleteNotification"),
        (Revision::Modern, "server/discover") => Some("DiscoverRequest"),
        (Revision::Modern, "subscriptions/listen") => Some("SubscriptionsListenRequest"),
        (Revision::Modern, "notifications/subscriptions/acknowledged") => Some("SubscriptionsAcknowledgedNotification"),
        _ => None,
    }
}

/// The result definition for a response to `method` in `revision`.
pub(super) fn result_definition(revision: Revision, method: &str) -> Option<&'static str> {
    Some(match (revision, method) {
        (_, "tools/call") => "CallToolResult",
        (_, "tools/list") => "ListToolsResult",
        (_, "resources/list") => "ListResourcesResult",
        (_, "resources/templates/list") => "ListResourceTemplatesResult",
        (_, "resources/read") => "ReadResourceResult",
        (_, "prompts/list") => "ListPromptsResult",
        (_, "prompts/get") => "GetPromptResult",
        (_, "completion/complete") => "CompleteResult",
        (_, "sampling/createMessage") => "CreateMessageResult",
        (_, "elicitation/create") => "ElicitResult",
        (_, "roots/list") => "ListRootsResult",
        (Revision::Legacy, "initialize") => "InitializeResult",
        (Revision::Legacy, "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe") => {
            "EmptyResult"
        }
        (Revision::Modern, "server/discover") => "DiscoverResult",
        (Revision::Modern, "subscriptions/listen") => "SubscriptionsListenResult",
        _ => return None,
    })
}
