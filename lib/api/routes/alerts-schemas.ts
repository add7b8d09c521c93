/** The webhook routes' request and response schemas: one copy, in lib/contract/webhooks.ts (the portal uses it too). */
export {
  deliveriesQuery,
  replayBody,
  webhookResponses as alertSchemas,
  webhookStatusBody as patchAlertBody,
} from "../../contract/webhooks";
