// The base sheet first, then the class vocabularies no one component owns: every component's and feature's sheet
// (imported below them, through the router) comes after these in the cascade.
import './styles/global.css';
import './ui/buttons.css';
import './ui/page.css';
import { ApolloProvider } from '@apollo/client/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createApolloClient } from './app/client';
import { router } from './router';

const client = createApolloClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApolloProvider client={client}>
      <RouterProvider router={router} />
    </ApolloProvider>
  </StrictMode>,
);
