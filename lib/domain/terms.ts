/** The terms of use a developer accepts at sign-up; raising TERMS_VERSION asks every user again at their next sign-in. */
export const TERMS_VERSION = 1;

export const TERMS_POINTS = [
  "The service provides educational market analysis. It is not financial advice, and nothing it returns is a recommendation to buy or sell.",
  "Show the disclaimer that comes with every response to your end users wherever you display the analytics.",
  "Do not resell or redistribute the output, raw or derived, as a data product of your own.",
  "Use one API key per application; keys are not to be shared across applications or with third parties.",
] as const;
