import * as m from "../../tests/helpers/test-db";
export { m };
