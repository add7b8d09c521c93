/** The package's version, sent in the User-Agent (a test checks it equals package.json's). */
export const CLIENT_VERSION = "0.2.0";
