import { graphql } from './gql/index.js';

export const Viewer = graphql(`
  query Viewer {
    me {
      id
      username
    }
  }
`);

/** One page of the customer directory; pass the previous page's endCursor as `after`. */
export const CustomersPage = graphql(`
  query CustomersPage($first: Int!, $after: String) {
    customers(first: $first, after: $after) {
      totalCount
      nodes {
        id
        name
        email
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const CustomerEvents = graphql(`
  subscription CustomerEvents {
    customerEvents {
      kind
      id
      customer {
        name
        email
      }
    }
  }
`);
