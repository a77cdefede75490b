// apollo-upload-client 20 ships JSDoc-typed .mjs only; this declares the one export the web app uses.
declare module 'apollo-upload-client/UploadHttpLink.mjs' {
  import { ApolloLink } from '@apollo/client/link';
  export interface UploadHttpLinkOptions {
    uri?: string;
    credentials?: RequestCredentials;
    headers?: Record<string, string>;
    fetchOptions?: RequestInit;
    includeExtensions?: boolean;
  }
  export default class UploadHttpLink extends ApolloLink {
    constructor(options?: UploadHttpLinkOptions);
  }
}
