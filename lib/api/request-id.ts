export { requestIdFrom } from "../util/request-id";
