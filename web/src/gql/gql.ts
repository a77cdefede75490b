/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query AdminPage($after: String) {\n    teams {\n      id\n      ...TeamCard_team\n    }\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n        ...AgentRoleRow_user\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.AdminPageDocument,
    "\n  fragment AgentRoleRow_user on User {\n    id\n    username\n    email\n    role\n  }\n": typeof types.AgentRoleRow_UserFragmentDoc,
    "\n  mutation SetUserRole($userId: Int!, $role: Role!) {\n    setUserRole(userId: $userId, role: $role) {\n      id\n      ...AgentRoleRow_user\n    }\n  }\n": typeof types.SetUserRoleDocument,
    "\n  mutation CreateTeam($name: String!) {\n    createTeam(name: $name) {\n      id\n      ...TeamCard_team\n    }\n  }\n": typeof types.CreateTeamDocument,
    "\n  fragment TeamCard_team on Team {\n    id\n    name\n    memberIds\n    autoAssign\n  }\n": typeof types.TeamCard_TeamFragmentDoc,
    "\n  mutation SetTeamAutoAssign($teamId: Int!, $enabled: Boolean!) {\n    setTeamAutoAssign(teamId: $teamId, enabled: $enabled) {\n      id\n      autoAssign\n    }\n  }\n": typeof types.SetTeamAutoAssignDocument,
    "\n  mutation AddTeamMember($teamId: Int!, $userId: Int!) {\n    addTeamMember(teamId: $teamId, userId: $userId) {\n      id\n      ...TeamCard_team\n    }\n  }\n": typeof types.AddTeamMemberDocument,
    "\n  mutation RemoveTeamMember($teamId: Int!, $userId: Int!) {\n    removeTeamMember(teamId: $teamId, userId: $userId) {\n      id\n      ...TeamCard_team\n    }\n  }\n": typeof types.RemoveTeamMemberDocument,
    "\n  fragment ApiTokenRow_token on ApiToken {\n    id\n    name\n    scopes\n    hint\n    createdAt\n    expiresAt\n    lastUsedAt\n  }\n": typeof types.ApiTokenRow_TokenFragmentDoc,
    "\n  query ApiTokensPage {\n    apiTokens {\n      id\n      ...ApiTokenRow_token\n    }\n  }\n": typeof types.ApiTokensPageDocument,
    "\n  mutation RevokeApiToken($id: Int!) {\n    revokeApiToken(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": typeof types.RevokeApiTokenDocument,
    "\n  mutation CreateApiToken($input: ApiTokenInput!) {\n    createApiToken(input: $input) {\n      secret\n      token {\n        id\n        ...ApiTokenRow_token\n      }\n    }\n  }\n": typeof types.CreateApiTokenDocument,
    "\n  query List($filter: TicketFilter) {\n    tickets(first: 50, filter: $filter) {\n      totalCount\n      statusCounts {\n        open\n        pending\n        solved\n      }\n      nodes {\n        id\n        status\n        priority\n        type\n        requesterId\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.ListDocument,
    "\n  fragment ListFacets_ticket on Ticket {\n    status\n    priority\n    type\n    requesterId\n  }\n": typeof types.ListFacets_TicketFragmentDoc,
    "\n  query SearchMatchList($filter: TicketFilter, $viewId: Int) {\n    tickets(first: 50, filter: $filter, viewId: $viewId) {\n      nodes {\n        id\n        title\n        searchMatch {\n          in\n          snippet\n          highlights {\n            start\n            length\n          }\n        }\n      }\n    }\n  }\n": typeof types.SearchMatchListDocument,
    "\n  mutation Take($id: Int!) {\n    takeTicket(id: $id, expectedVersion: 1) {\n      id\n      title\n      searchMatch {\n        in\n        snippet\n        highlights {\n          start\n          length\n        }\n      }\n    }\n  }\n": typeof types.TakeDocument,
    "\n        query Plain($filter: TicketFilter) {\n          tickets(first: 50, filter: $filter) {\n            nodes {\n              id\n              title\n            }\n          }\n        }\n      ": typeof types.PlainDocument,
    "\n  mutation Login($email: String!, $password: String!) {\n    login(email: $email, password: $password) {\n      id\n      username\n      email\n    }\n  }\n": typeof types.LoginDocument,
    "\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) {\n      id\n      username\n      email\n    }\n  }\n": typeof types.SignupDocument,
    "\n  mutation Logout {\n    logout\n  }\n": typeof types.LogoutDocument,
    "\n  query Root {\n    me {\n      id\n      username\n      email\n      role\n    }\n  }\n": typeof types.RootDocument,
    "\n  query CustomerEmailAvailable($email: String!, $name: String) {\n    customerEmailAvailable(email: $email, name: $name)\n  }\n": typeof types.CustomerEmailAvailableDocument,
    "\n  mutation CreateCustomer($input: CustomerInput!) {\n    createCustomer(input: $input) {\n      id\n      ...CustomerRow_customer\n      ...RequesterPicker_customer\n    }\n  }\n": typeof types.CreateCustomerDocument,
    "\n  mutation UpdateCustomer($id: Int!, $input: CustomerInput!) {\n    updateCustomer(id: $id, input: $input) {\n      id\n      ...CustomerRow_customer\n      ...RequesterPicker_customer\n    }\n  }\n": typeof types.UpdateCustomerDocument,
    "\n  fragment CustomerRow_customer on Customer {\n    id\n    ownerId\n    name\n    email\n  }\n": typeof types.CustomerRow_CustomerFragmentDoc,
    "\n  query CustomersPage($first: Int!, $after: String) {\n    customers(first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        ...CustomerRow_customer\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": typeof types.CustomersPageDocument,
    "\n  mutation DeleteCustomer($id: Int!) {\n    deleteCustomer(id: $id)\n  }\n": typeof types.DeleteCustomerDocument,
    "\n  subscription LiveMessageEvents {\n    messageEvents {\n      kind\n      id\n      senderId\n      receiverId\n      message {\n        id\n        senderId\n        receiverId\n        ...MessageCard_message\n      }\n    }\n  }\n": typeof types.LiveMessageEventsDocument,
    "\n  subscription LiveTicketEvents {\n    ticketEvents {\n      kind\n      id\n      ticket {\n        id\n        ...TicketRow_ticket\n        ...TicketDetail_ticket\n        ...TicketForm_ticket\n        ...TicketStatusControl_ticket\n        ...TicketAssignment_ticket\n        assigneeId\n      }\n      previous {\n        status\n        priority\n        type\n        requesterId\n      }\n      current {\n        status\n        priority\n        type\n        requesterId\n      }\n    }\n  }\n": typeof types.LiveTicketEventsDocument,
    "\n  subscription LiveCustomerEvents {\n    customerEvents {\n      kind\n      id\n      customer {\n        id\n        ...CustomerRow_customer\n        ...RequesterPicker_customer\n      }\n    }\n  }\n": typeof types.LiveCustomerEventsDocument,
    "\n  subscription LiveMacroEvents {\n    macroEvents {\n      kind\n      id\n      macro {\n        id\n        ...MacroCard_macro\n        ...TicketForm_macro\n      }\n    }\n  }\n": typeof types.LiveMacroEventsDocument,
    "\n  subscription LivePresenceEvents {\n    presenceEvents {\n      changes {\n        userId\n        online\n        version\n      }\n    }\n  }\n": typeof types.LivePresenceEventsDocument,
    "\n  subscription LiveTypingEvents {\n    typingEvents {\n      senderId\n    }\n  }\n": typeof types.LiveTypingEventsDocument,
    "\n  query UnreadCount {\n    unreadMessageCount\n  }\n": typeof types.UnreadCountDocument,
    "\n  fragment ConversationUnread_conversation on Conversation {\n    partnerId\n    unreadCount\n    lastReadMessageId\n  }\n": typeof types.ConversationUnread_ConversationFragmentDoc,
    "\n  subscription LiveUnreadCountEvents {\n    unreadCountEvents {\n      reason\n      unreadMessageCount\n      conversation {\n        partnerId\n        ...ConversationUnread_conversation\n      }\n    }\n  }\n": typeof types.LiveUnreadCountEventsDocument,
    "\n  subscription LiveViewCountEvents {\n    viewCountEvents {\n      viewId\n      count\n      removed\n      view {\n        id\n        name\n        count\n        scope\n        shared\n        team {\n          id\n          name\n        }\n        filter {\n          priority\n          requesterId\n          search\n          status\n          type\n        }\n        ...ViewSidebar_view\n      }\n    }\n  }\n": typeof types.LiveViewCountEventsDocument,
    "\n  fragment MacroCard_macro on Macro {\n    id\n    ownerId\n    name\n    description\n  }\n": typeof types.MacroCard_MacroFragmentDoc,
    "\n  mutation CreateMacro($input: MacroInput!) {\n    createMacro(input: $input) {\n      id\n      ...MacroCard_macro\n      ...TicketForm_macro\n    }\n  }\n": typeof types.CreateMacroDocument,
    "\n  mutation UpdateMacro($id: Int!, $input: MacroInput!) {\n    updateMacro(id: $id, input: $input) {\n      id\n      ...MacroCard_macro\n      ...TicketForm_macro\n    }\n  }\n": typeof types.UpdateMacroDocument,
    "\n  query MacrosPage($first: Int!, $after: String) {\n    macros(first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        ...MacroCard_macro\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": typeof types.MacrosPageDocument,
    "\n  mutation DeleteMacro($id: Int!) {\n    deleteMacro(id: $id) {\n      id\n      movedTicketIds\n    }\n  }\n": typeof types.DeleteMacroDocument,
    "\n  query ConversationMessages($withUserId: Int!, $after: String) {\n    messages(withUserId: $withUserId, first: 50, after: $after) {\n      totalCount\n      nodes {\n        id\n        senderId\n        receiverId\n        ...MessageCard_message\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": typeof types.ConversationMessagesDocument,
    "\n  mutation SendMessage($receiverId: Int!, $text: String!) {\n    sendMessage(receiverId: $receiverId, text: $text) {\n      id\n      senderId\n      receiverId\n      ...MessageCard_message\n    }\n  }\n": typeof types.SendMessageDocument,
    "\n  mutation EditMessage($id: Int!, $text: String!) {\n    editMessage(id: $id, text: $text) {\n      id\n      ...MessageCard_message\n    }\n  }\n": typeof types.EditMessageDocument,
    "\n  mutation DeleteMessage($id: Int!) {\n    deleteMessage(id: $id)\n  }\n": typeof types.DeleteMessageDocument,
    "\n  mutation MarkConversationRead($partnerId: Int!, $upToMessageId: Int) {\n    markConversationRead(partnerId: $partnerId, upToMessageId: $upToMessageId) {\n      partnerId\n      ...ConversationUnread_conversation\n    }\n  }\n": typeof types.MarkConversationReadDocument,
    "\n  mutation NotifyTyping($partnerId: Int!) {\n    notifyTyping(partnerId: $partnerId)\n  }\n": typeof types.NotifyTypingDocument,
    "\n  fragment MessageCard_message on Message {\n    id\n    text\n    senderId\n    createdAt\n    updatedAt\n    sender {\n      id\n      username\n    }\n  }\n": typeof types.MessageCard_MessageFragmentDoc,
    "\n  query MessageCenter($after: String) {\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n        email\n        online\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    conversations(first: 100) {\n      nodes {\n        partnerId\n        unreadCount\n        ...ConversationUnread_conversation\n      }\n    }\n  }\n": typeof types.MessageCenterDocument,
    "\n  query ReportsPage($input: ReportInput!) {\n    report(input: $input) {\n      totals {\n        created\n        solved\n        reopened\n        backlog\n        firstResponse {\n          count\n          median\n          p90\n        }\n        firstResolution {\n          count\n          median\n          p90\n        }\n        resolution {\n          count\n          median\n          p90\n        }\n      }\n      series {\n        bucketStart\n        created\n        solved\n        reopened\n        backlog\n        firstResponse {\n          count\n          median\n          p90\n        }\n        firstResolution {\n          count\n          median\n          p90\n        }\n        resolution {\n          count\n          median\n          p90\n        }\n      }\n      groups {\n        key\n        label\n        totals {\n          created\n          solved\n          reopened\n          backlog\n          firstResponse {\n            count\n            median\n            p90\n          }\n          firstResolution {\n            count\n            median\n            p90\n          }\n          resolution {\n            count\n            median\n            p90\n          }\n        }\n      }\n    }\n  }\n": typeof types.ReportsPageDocument,
    "\n  query CreateTicketPage($after: String) {\n    macros(first: 100, after: $after) {\n      nodes {\n        id\n        ...TicketForm_macro\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.CreateTicketPageDocument,
    "\n  mutation CreateTicket($input: TicketInput!, $image: Upload, $teamId: Int, $assigneeId: Int) {\n    createTicket(input: $input, image: $image, teamId: $teamId, assigneeId: $assigneeId) {\n      id\n      ...TicketRow_ticket\n      ...TicketDetail_ticket\n      ...TicketForm_ticket\n      ...TicketStatusControl_ticket\n      ...TicketAssignment_ticket\n    }\n  }\n": typeof types.CreateTicketDocument,
    "\n  query DashboardPage($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {\n    views {\n      id\n      name\n      count\n      scope\n      team {\n        id\n        name\n      }\n      filter {\n        priority\n        requesterId\n        search\n        status\n        type\n      }\n      ...ViewSidebar_view\n    }\n    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {\n      totalCount\n      statusCounts {\n        open\n        pending\n        solved\n      }\n      nodes {\n        id\n        ...TicketRow_ticket\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": typeof types.DashboardPageDocument,
    "\n  query EditTicketPage($id: Int!, $after: String) {\n    ticket(id: $id) {\n      id\n      ...TicketForm_ticket\n    }\n    macros(first: 100, after: $after) {\n      nodes {\n        id\n        ...TicketForm_macro\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.EditTicketPageDocument,
    "\n  mutation UpdateTicket($id: Int!, $input: TicketInput!, $image: Upload) {\n    updateTicket(id: $id, input: $input, image: $image) {\n      id\n      ...TicketRow_ticket\n      ...TicketDetail_ticket\n      ...TicketForm_ticket\n      version\n    }\n  }\n": typeof types.UpdateTicketDocument,
    "\n  fragment RequesterPicker_customer on Customer {\n    id\n    name\n    email\n  }\n": typeof types.RequesterPicker_CustomerFragmentDoc,
    "\n  query RequesterSearch($search: String, $first: Int!) {\n    customers(search: $search, first: $first) {\n      totalCount\n      nodes {\n        id\n        ...RequesterPicker_customer\n      }\n    }\n  }\n": typeof types.RequesterSearchDocument,
    "\n  mutation CreateView($input: ViewInput!) {\n    createView(input: $input) {\n      id\n      name\n      scope\n      shared\n      count\n      ...ViewSidebar_view\n    }\n  }\n": typeof types.CreateViewDocument,
    "\n  fragment TicketAssignment_ticket on Ticket {\n    id\n    version\n    assigneeId\n    assignee {\n      id\n      username\n    }\n    teamId\n    team {\n      id\n      name\n      memberIds\n    }\n  }\n": typeof types.TicketAssignment_TicketFragmentDoc,
    "\n  mutation TakeTicket($id: Int!, $expectedVersion: Int!) {\n    takeTicket(id: $id, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketAssignment_ticket\n    }\n  }\n": typeof types.TakeTicketDocument,
    "\n  mutation AssignTicket($id: Int!, $teamId: Int, $assigneeId: Int, $expectedVersion: Int!) {\n    assignTicket(id: $id, teamId: $teamId, assigneeId: $assigneeId, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketAssignment_ticket\n    }\n  }\n": typeof types.AssignTicketDocument,
    "\n  fragment TicketForm_ticket on Ticket {\n    id\n    title\n    type\n    priority\n    macroId\n    requesterId\n    assignee {\n      id\n      username\n    }\n    requester {\n      id\n      ...RequesterPicker_customer\n    }\n    description\n    image {\n      id\n      url\n    }\n  }\n": typeof types.TicketForm_TicketFragmentDoc,
    "\n  fragment TicketForm_macro on Macro {\n    id\n    name\n  }\n": typeof types.TicketForm_MacroFragmentDoc,
    "\n  fragment TicketDetail_ticket on Ticket {\n    id\n    title\n    subject\n    type\n    priority\n    status\n    description\n    requesterId\n    assignee {\n      id\n      username\n    }\n    team {\n      id\n      name\n    }\n    macro {\n      id\n      name\n    }\n    requester {\n      id\n      name\n      email\n    }\n    image {\n      id\n      url\n      width\n      height\n    }\n    ...TicketStatusControl_ticket\n    ...TicketAssignment_ticket\n  }\n": typeof types.TicketDetail_TicketFragmentDoc,
    "\n  mutation UpdateTicketProperty($id: Int!, $input: TicketInput!) {\n    updateTicket(id: $id, input: $input) {\n      id\n      type\n      priority\n      status\n      updatedAt\n      version\n      macro {\n        id\n        name\n      }\n    }\n  }\n": typeof types.UpdateTicketPropertyDocument,
    "\n  query RequesterOpenTickets($requesterId: Int!) {\n    tickets(first: 6, filter: { requesterId: $requesterId, status: [OPEN, PENDING] }, orderBy: UPDATED) {\n      nodes {\n        id\n        title\n        status\n      }\n    }\n  }\n": typeof types.RequesterOpenTicketsDocument,
    "\n  fragment TicketRow_ticket on Ticket {\n    id\n    title\n    type\n    priority\n    status\n    requesterId\n    updatedAt\n    awaitingReply\n    requester {\n      id\n      name\n    }\n    image {\n      id\n      url\n    }\n    version\n    assigneeId\n    assignee {\n      id\n      username\n    }\n    teamId\n    team {\n      id\n      name\n      memberIds\n    }\n    searchMatch {\n      in\n      snippet\n      highlights {\n        start\n        length\n      }\n    }\n  }\n": typeof types.TicketRow_TicketFragmentDoc,
    "\n  mutation TakeTicketFromList($id: Int!, $expectedVersion: Int!) {\n    takeTicket(id: $id, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketRow_ticket\n    }\n  }\n": typeof types.TakeTicketFromListDocument,
    "\n  fragment TicketStatusControl_ticket on Ticket {\n    id\n    status\n  }\n": typeof types.TicketStatusControl_TicketFragmentDoc,
    "\n  mutation SetTicketStatus($id: Int!, $status: TicketStatus!) {\n    setTicketStatus(id: $id, status: $status) {\n      id\n      status\n      updatedAt\n      version\n    }\n  }\n": typeof types.SetTicketStatusDocument,
    "\n  fragment ViewSidebar_view on TicketView {\n    id\n    name\n    scope\n    shared\n    count\n  }\n": typeof types.ViewSidebar_ViewFragmentDoc,
    "\n  query ViewTicketPage($id: Int!, $timelineFilter: TimelineFilter!) {\n    ticket(id: $id) {\n      id\n      subject\n      description\n      createdAt\n      requester {\n        id\n        name\n      }\n      ...TicketDetail_ticket\n      ...TicketTimeline_ticket\n      timeline(first: 50, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n": typeof types.ViewTicketPageDocument,
    "\n  mutation DeleteTicket($id: Int!) {\n    deleteTicket(id: $id)\n  }\n": typeof types.DeleteTicketDocument,
    "\n  query AssignmentOptions($after: String) {\n    teams {\n      id\n      name\n      memberIds\n    }\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.AssignmentOptionsDocument,
    "\n  query TicketListIds($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {\n    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {\n      nodes {\n        id\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": typeof types.TicketListIdsDocument,
    "\n  mutation AcceptRequesterMessage($id: Int!) {\n    acceptRequesterMessage(id: $id) {\n      ...TimelineEntry_requesterMessage\n    }\n  }\n": typeof types.AcceptRequesterMessageDocument,
    "\n  mutation DiscardRequesterMessage($id: Int!) {\n    discardRequesterMessage(id: $id) {\n      ...TimelineEntry_requesterMessage\n    }\n  }\n": typeof types.DiscardRequesterMessageDocument,
    "\n  query MailOriginal($messageId: Int!) {\n    mailOriginal(messageId: $messageId) {\n      subject\n      fromEmail\n      text\n      html\n    }\n  }\n": typeof types.MailOriginalDocument,
    "\n  subscription TicketTimelineEvents($ticketId: Int!, $afterSeq: Int) {\n    ticketTimelineEvents(ticketId: $ticketId, afterSeq: $afterSeq) {\n      __typename\n      ...TimelineEntry_note\n      ...TimelineEntry_change\n      ...TimelineEntry_reply\n      ...TimelineEntry_requesterMessage\n      ... on TicketChange {\n        note {\n          ...TimelineEntry_note\n        }\n      }\n    }\n  }\n": typeof types.TicketTimelineEventsDocument,
    "\n  fragment TicketTimeline_ticket on Ticket {\n    id\n    requesterLink\n    requester {\n      id\n      name\n      email\n    }\n    macro {\n      id\n      name\n    }\n  }\n": typeof types.TicketTimeline_TicketFragmentDoc,
    "\n  mutation ReplyToRequester($ticketId: Int!, $body: String!, $attachments: [Upload!], $setStatus: TicketStatus) {\n    replyToRequester(ticketId: $ticketId, body: $body, attachments: $attachments, setStatus: $setStatus) {\n      __typename\n      ...TimelineEntry_reply\n    }\n  }\n": typeof types.ReplyToRequesterDocument,
    "\n  mutation RevokeRequesterLink($ticketId: Int!) {\n    revokeRequesterLink(ticketId: $ticketId)\n  }\n": typeof types.RevokeRequesterLinkDocument,
    "\n  subscription ReplyDeliveryEvents($ticketId: Int!) {\n    replyDeliveryEvents(ticketId: $ticketId) {\n      id\n      delivery {\n        state\n        attempts\n        lastResponse\n      }\n    }\n  }\n": typeof types.ReplyDeliveryEventsDocument,
    "\n  mutation AddTicketNote($ticketId: Int!, $body: String!) {\n    addTicketNote(ticketId: $ticketId, body: $body) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n": typeof types.AddTicketNoteDocument,
    "\n  mutation EditTicketNote($id: Int!, $body: String!) {\n    editTicketNote(id: $id, body: $body) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n": typeof types.EditTicketNoteDocument,
    "\n  mutation DeleteTicketNote($id: Int!) {\n    deleteTicketNote(id: $id) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n": typeof types.DeleteTicketNoteDocument,
    "\n  query TimelineEntryWrite($ticketId: Int!, $timelineFilter: TimelineFilter!) {\n    ticket(id: $ticketId) {\n      id\n      timeline(first: 1, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n": typeof types.TimelineEntryWriteDocument,
    "\n  fragment TimelineEntry_note on TicketNote {\n    id\n    seq\n    at\n    body\n    editedAt\n    deletedAt\n    author {\n      id\n      username\n    }\n    revisions {\n      id\n      at\n      body\n      editor {\n        id\n        username\n      }\n    }\n  }\n": typeof types.TimelineEntry_NoteFragmentDoc,
    "\n  fragment TimelineEntry_change on TicketChange {\n    seq\n    at\n    kind\n    via\n    noteId\n    actor {\n      kind\n      name\n      user {\n        id\n      }\n    }\n    changes {\n      field\n      from\n      to\n      fromLabel\n      toLabel\n    }\n  }\n": typeof types.TimelineEntry_ChangeFragmentDoc,
    "\n  fragment TimelineEntry_reply on TicketReply {\n    id\n    seq\n    at\n    text: body\n    author {\n      id\n      username\n    }\n    delivery {\n      state\n      attempts\n      lastResponse\n    }\n    attachments {\n      id\n      filename\n      mimeType\n      byteSize\n      url\n    }\n  }\n": typeof types.TimelineEntry_ReplyFragmentDoc,
    "\n  fragment TimelineEntry_requesterMessage on RequesterMessage {\n    id\n    seq\n    at\n    fromEmail\n    text: body\n    via\n    held\n    heldReason\n    discardedAt\n    subject\n    authentication {\n      spf\n      dkim\n      dmarc\n    }\n    attachments {\n      id\n      filename\n      mimeType\n      byteSize\n      url\n    }\n  }\n": typeof types.TimelineEntry_RequesterMessageFragmentDoc,
    "\n  query TicketTimelinePage($ticketId: Int!, $timelineFilter: TimelineFilter!, $after: String) {\n    ticket(id: $ticketId) {\n      id\n      timeline(first: 50, after: $after, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n": typeof types.TicketTimelinePageDocument,
    "\n  query MacroChoices {\n    macros(first: 100, includeShared: true) {\n      nodes {\n        id\n        name\n        description\n        ownerId\n        sharing\n        team {\n          id\n          name\n        }\n      }\n    }\n  }\n": typeof types.MacroChoicesDocument,
    "\n  query RenderMacro($macroId: Int!, $ticketId: Int!) {\n    renderMacro(macroId: $macroId, ticketId: $ticketId)\n  }\n": typeof types.RenderMacroDocument,
    "\n  mutation CreateWebhook($input: WebhookInput!) {\n    createWebhook(input: $input) {\n      secret\n      webhook {\n        id\n        ...WebhookRow_webhook\n      }\n    }\n  }\n": typeof types.CreateWebhookDocument,
    "\n  fragment DeliveryRow_delivery on WebhookDelivery {\n    id\n    event\n    messageId\n    attempt\n    statusCode\n    succeeded\n    durationMs\n    error\n    responseExcerpt\n    createdAt\n  }\n": typeof types.DeliveryRow_DeliveryFragmentDoc,
    "\n  query WebhookPage($id: Int!) {\n    webhook(id: $id) {\n      id\n      url\n      events\n      enabled\n      disabledAt\n      disabledReason\n      consecutiveFailures\n      previousSecretExpiresAt\n      ...WebhookRow_webhook\n      deliveries(first: 50) {\n        nodes {\n          id\n          ...DeliveryRow_delivery\n        }\n        pageInfo {\n          hasNextPage\n        }\n      }\n    }\n  }\n": typeof types.WebhookPageDocument,
    "\n  mutation SendTestWebhook($id: Int!) {\n    sendTestWebhook(id: $id) {\n      id\n      succeeded\n      statusCode\n      error\n      ...DeliveryRow_delivery\n    }\n  }\n": typeof types.SendTestWebhookDocument,
    "\n  mutation RedeliverWebhookDelivery($id: Int!) {\n    redeliverWebhookDelivery(id: $id) {\n      id\n      succeeded\n      statusCode\n      error\n      ...DeliveryRow_delivery\n    }\n  }\n": typeof types.RedeliverWebhookDeliveryDocument,
    "\n  mutation RotateWebhookSecret($id: Int!) {\n    rotateWebhookSecret(id: $id) {\n      secret\n      webhook {\n        id\n        previousSecretExpiresAt\n      }\n    }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  mutation SetWebhookEnabled($id: Int!, $enabled: Boolean!) {\n    updateWebhook(id: $id, input: { enabled: $enabled }) {\n      id\n      enabled\n      disabledAt\n      disabledReason\n      consecutiveFailures\n    }\n  }\n": typeof types.SetWebhookEnabledDocument,
    "\n  mutation DeleteWebhook($id: Int!) {\n    deleteWebhook(id: $id)\n  }\n": typeof types.DeleteWebhookDocument,
    "\n  fragment WebhookRow_webhook on Webhook {\n    id\n    url\n    events\n    enabled\n    disabledReason\n    consecutiveFailures\n  }\n": typeof types.WebhookRow_WebhookFragmentDoc,
    "\n  query WebhooksPage {\n    webhooks {\n      id\n      ...WebhookRow_webhook\n    }\n  }\n": typeof types.WebhooksPageDocument,
};
const documents: Documents = {
    "\n  query AdminPage($after: String) {\n    teams {\n      id\n      ...TeamCard_team\n    }\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n        ...AgentRoleRow_user\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.AdminPageDocument,
    "\n  fragment AgentRoleRow_user on User {\n    id\n    username\n    email\n    role\n  }\n": types.AgentRoleRow_UserFragmentDoc,
    "\n  mutation SetUserRole($userId: Int!, $role: Role!) {\n    setUserRole(userId: $userId, role: $role) {\n      id\n      ...AgentRoleRow_user\n    }\n  }\n": types.SetUserRoleDocument,
    "\n  mutation CreateTeam($name: String!) {\n    createTeam(name: $name) {\n      id\n      ...TeamCard_team\n    }\n  }\n": types.CreateTeamDocument,
    "\n  fragment TeamCard_team on Team {\n    id\n    name\n    memberIds\n    autoAssign\n  }\n": types.TeamCard_TeamFragmentDoc,
    "\n  mutation SetTeamAutoAssign($teamId: Int!, $enabled: Boolean!) {\n    setTeamAutoAssign(teamId: $teamId, enabled: $enabled) {\n      id\n      autoAssign\n    }\n  }\n": types.SetTeamAutoAssignDocument,
    "\n  mutation AddTeamMember($teamId: Int!, $userId: Int!) {\n    addTeamMember(teamId: $teamId, userId: $userId) {\n      id\n      ...TeamCard_team\n    }\n  }\n": types.AddTeamMemberDocument,
    "\n  mutation RemoveTeamMember($teamId: Int!, $userId: Int!) {\n    removeTeamMember(teamId: $teamId, userId: $userId) {\n      id\n      ...TeamCard_team\n    }\n  }\n": types.RemoveTeamMemberDocument,
    "\n  fragment ApiTokenRow_token on ApiToken {\n    id\n    name\n    scopes\n    hint\n    createdAt\n    expiresAt\n    lastUsedAt\n  }\n": types.ApiTokenRow_TokenFragmentDoc,
    "\n  query ApiTokensPage {\n    apiTokens {\n      id\n      ...ApiTokenRow_token\n    }\n  }\n": types.ApiTokensPageDocument,
    "\n  mutation RevokeApiToken($id: Int!) {\n    revokeApiToken(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": types.RevokeApiTokenDocument,
    "\n  mutation CreateApiToken($input: ApiTokenInput!) {\n    createApiToken(input: $input) {\n      secret\n      token {\n        id\n        ...ApiTokenRow_token\n      }\n    }\n  }\n": types.CreateApiTokenDocument,
    "\n  query List($filter: TicketFilter) {\n    tickets(first: 50, filter: $filter) {\n      totalCount\n      statusCounts {\n        open\n        pending\n        solved\n      }\n      nodes {\n        id\n        status\n        priority\n        type\n        requesterId\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.ListDocument,
    "\n  fragment ListFacets_ticket on Ticket {\n    status\n    priority\n    type\n    requesterId\n  }\n": types.ListFacets_TicketFragmentDoc,
    "\n  query SearchMatchList($filter: TicketFilter, $viewId: Int) {\n    tickets(first: 50, filter: $filter, viewId: $viewId) {\n      nodes {\n        id\n        title\n        searchMatch {\n          in\n          snippet\n          highlights {\n            start\n            length\n          }\n        }\n      }\n    }\n  }\n": types.SearchMatchListDocument,
    "\n  mutation Take($id: Int!) {\n    takeTicket(id: $id, expectedVersion: 1) {\n      id\n      title\n      searchMatch {\n        in\n        snippet\n        highlights {\n          start\n          length\n        }\n      }\n    }\n  }\n": types.TakeDocument,
    "\n        query Plain($filter: TicketFilter) {\n          tickets(first: 50, filter: $filter) {\n            nodes {\n              id\n              title\n            }\n          }\n        }\n      ": types.PlainDocument,
    "\n  mutation Login($email: String!, $password: String!) {\n    login(email: $email, password: $password) {\n      id\n      username\n      email\n    }\n  }\n": types.LoginDocument,
    "\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) {\n      id\n      username\n      email\n    }\n  }\n": types.SignupDocument,
    "\n  mutation Logout {\n    logout\n  }\n": types.LogoutDocument,
    "\n  query Root {\n    me {\n      id\n      username\n      email\n      role\n    }\n  }\n": types.RootDocument,
    "\n  query CustomerEmailAvailable($email: String!, $name: String) {\n    customerEmailAvailable(email: $email, name: $name)\n  }\n": types.CustomerEmailAvailableDocument,
    "\n  mutation CreateCustomer($input: CustomerInput!) {\n    createCustomer(input: $input) {\n      id\n      ...CustomerRow_customer\n      ...RequesterPicker_customer\n    }\n  }\n": types.CreateCustomerDocument,
    "\n  mutation UpdateCustomer($id: Int!, $input: CustomerInput!) {\n    updateCustomer(id: $id, input: $input) {\n      id\n      ...CustomerRow_customer\n      ...RequesterPicker_customer\n    }\n  }\n": types.UpdateCustomerDocument,
    "\n  fragment CustomerRow_customer on Customer {\n    id\n    ownerId\n    name\n    email\n  }\n": types.CustomerRow_CustomerFragmentDoc,
    "\n  query CustomersPage($first: Int!, $after: String) {\n    customers(first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        ...CustomerRow_customer\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": types.CustomersPageDocument,
    "\n  mutation DeleteCustomer($id: Int!) {\n    deleteCustomer(id: $id)\n  }\n": types.DeleteCustomerDocument,
    "\n  subscription LiveMessageEvents {\n    messageEvents {\n      kind\n      id\n      senderId\n      receiverId\n      message {\n        id\n        senderId\n        receiverId\n        ...MessageCard_message\n      }\n    }\n  }\n": types.LiveMessageEventsDocument,
    "\n  subscription LiveTicketEvents {\n    ticketEvents {\n      kind\n      id\n      ticket {\n        id\n        ...TicketRow_ticket\n        ...TicketDetail_ticket\n        ...TicketForm_ticket\n        ...TicketStatusControl_ticket\n        ...TicketAssignment_ticket\n        assigneeId\n      }\n      previous {\n        status\n        priority\n        type\n        requesterId\n      }\n      current {\n        status\n        priority\n        type\n        requesterId\n      }\n    }\n  }\n": types.LiveTicketEventsDocument,
    "\n  subscription LiveCustomerEvents {\n    customerEvents {\n      kind\n      id\n      customer {\n        id\n        ...CustomerRow_customer\n        ...RequesterPicker_customer\n      }\n    }\n  }\n": types.LiveCustomerEventsDocument,
    "\n  subscription LiveMacroEvents {\n    macroEvents {\n      kind\n      id\n      macro {\n        id\n        ...MacroCard_macro\n        ...TicketForm_macro\n      }\n    }\n  }\n": types.LiveMacroEventsDocument,
    "\n  subscription LivePresenceEvents {\n    presenceEvents {\n      changes {\n        userId\n        online\n        version\n      }\n    }\n  }\n": types.LivePresenceEventsDocument,
    "\n  subscription LiveTypingEvents {\n    typingEvents {\n      senderId\n    }\n  }\n": types.LiveTypingEventsDocument,
    "\n  query UnreadCount {\n    unreadMessageCount\n  }\n": types.UnreadCountDocument,
    "\n  fragment ConversationUnread_conversation on Conversation {\n    partnerId\n    unreadCount\n    lastReadMessageId\n  }\n": types.ConversationUnread_ConversationFragmentDoc,
    "\n  subscription LiveUnreadCountEvents {\n    unreadCountEvents {\n      reason\n      unreadMessageCount\n      conversation {\n        partnerId\n        ...ConversationUnread_conversation\n      }\n    }\n  }\n": types.LiveUnreadCountEventsDocument,
    "\n  subscription LiveViewCountEvents {\n    viewCountEvents {\n      viewId\n      count\n      removed\n      view {\n        id\n        name\n        count\n        scope\n        shared\n        team {\n          id\n          name\n        }\n        filter {\n          priority\n          requesterId\n          search\n          status\n          type\n        }\n        ...ViewSidebar_view\n      }\n    }\n  }\n": types.LiveViewCountEventsDocument,
    "\n  fragment MacroCard_macro on Macro {\n    id\n    ownerId\n    name\n    description\n  }\n": types.MacroCard_MacroFragmentDoc,
    "\n  mutation CreateMacro($input: MacroInput!) {\n    createMacro(input: $input) {\n      id\n      ...MacroCard_macro\n      ...TicketForm_macro\n    }\n  }\n": types.CreateMacroDocument,
    "\n  mutation UpdateMacro($id: Int!, $input: MacroInput!) {\n    updateMacro(id: $id, input: $input) {\n      id\n      ...MacroCard_macro\n      ...TicketForm_macro\n    }\n  }\n": types.UpdateMacroDocument,
    "\n  query MacrosPage($first: Int!, $after: String) {\n    macros(first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        ...MacroCard_macro\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": types.MacrosPageDocument,
    "\n  mutation DeleteMacro($id: Int!) {\n    deleteMacro(id: $id) {\n      id\n      movedTicketIds\n    }\n  }\n": types.DeleteMacroDocument,
    "\n  query ConversationMessages($withUserId: Int!, $after: String) {\n    messages(withUserId: $withUserId, first: 50, after: $after) {\n      totalCount\n      nodes {\n        id\n        senderId\n        receiverId\n        ...MessageCard_message\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": types.ConversationMessagesDocument,
    "\n  mutation SendMessage($receiverId: Int!, $text: String!) {\n    sendMessage(receiverId: $receiverId, text: $text) {\n      id\n      senderId\n      receiverId\n      ...MessageCard_message\n    }\n  }\n": types.SendMessageDocument,
    "\n  mutation EditMessage($id: Int!, $text: String!) {\n    editMessage(id: $id, text: $text) {\n      id\n      ...MessageCard_message\n    }\n  }\n": types.EditMessageDocument,
    "\n  mutation DeleteMessage($id: Int!) {\n    deleteMessage(id: $id)\n  }\n": types.DeleteMessageDocument,
    "\n  mutation MarkConversationRead($partnerId: Int!, $upToMessageId: Int) {\n    markConversationRead(partnerId: $partnerId, upToMessageId: $upToMessageId) {\n      partnerId\n      ...ConversationUnread_conversation\n    }\n  }\n": types.MarkConversationReadDocument,
    "\n  mutation NotifyTyping($partnerId: Int!) {\n    notifyTyping(partnerId: $partnerId)\n  }\n": types.NotifyTypingDocument,
    "\n  fragment MessageCard_message on Message {\n    id\n    text\n    senderId\n    createdAt\n    updatedAt\n    sender {\n      id\n      username\n    }\n  }\n": types.MessageCard_MessageFragmentDoc,
    "\n  query MessageCenter($after: String) {\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n        email\n        online\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    conversations(first: 100) {\n      nodes {\n        partnerId\n        unreadCount\n        ...ConversationUnread_conversation\n      }\n    }\n  }\n": types.MessageCenterDocument,
    "\n  query ReportsPage($input: ReportInput!) {\n    report(input: $input) {\n      totals {\n        created\n        solved\n        reopened\n        backlog\n        firstResponse {\n          count\n          median\n          p90\n        }\n        firstResolution {\n          count\n          median\n          p90\n        }\n        resolution {\n          count\n          median\n          p90\n        }\n      }\n      series {\n        bucketStart\n        created\n        solved\n        reopened\n        backlog\n        firstResponse {\n          count\n          median\n          p90\n        }\n        firstResolution {\n          count\n          median\n          p90\n        }\n        resolution {\n          count\n          median\n          p90\n        }\n      }\n      groups {\n        key\n        label\n        totals {\n          created\n          solved\n          reopened\n          backlog\n          firstResponse {\n            count\n            median\n            p90\n          }\n          firstResolution {\n            count\n            median\n            p90\n          }\n          resolution {\n            count\n            median\n            p90\n          }\n        }\n      }\n    }\n  }\n": types.ReportsPageDocument,
    "\n  query CreateTicketPage($after: String) {\n    macros(first: 100, after: $after) {\n      nodes {\n        id\n        ...TicketForm_macro\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.CreateTicketPageDocument,
    "\n  mutation CreateTicket($input: TicketInput!, $image: Upload, $teamId: Int, $assigneeId: Int) {\n    createTicket(input: $input, image: $image, teamId: $teamId, assigneeId: $assigneeId) {\n      id\n      ...TicketRow_ticket\n      ...TicketDetail_ticket\n      ...TicketForm_ticket\n      ...TicketStatusControl_ticket\n      ...TicketAssignment_ticket\n    }\n  }\n": types.CreateTicketDocument,
    "\n  query DashboardPage($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {\n    views {\n      id\n      name\n      count\n      scope\n      team {\n        id\n        name\n      }\n      filter {\n        priority\n        requesterId\n        search\n        status\n        type\n      }\n      ...ViewSidebar_view\n    }\n    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {\n      totalCount\n      statusCounts {\n        open\n        pending\n        solved\n      }\n      nodes {\n        id\n        ...TicketRow_ticket\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": types.DashboardPageDocument,
    "\n  query EditTicketPage($id: Int!, $after: String) {\n    ticket(id: $id) {\n      id\n      ...TicketForm_ticket\n    }\n    macros(first: 100, after: $after) {\n      nodes {\n        id\n        ...TicketForm_macro\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.EditTicketPageDocument,
    "\n  mutation UpdateTicket($id: Int!, $input: TicketInput!, $image: Upload) {\n    updateTicket(id: $id, input: $input, image: $image) {\n      id\n      ...TicketRow_ticket\n      ...TicketDetail_ticket\n      ...TicketForm_ticket\n      version\n    }\n  }\n": types.UpdateTicketDocument,
    "\n  fragment RequesterPicker_customer on Customer {\n    id\n    name\n    email\n  }\n": types.RequesterPicker_CustomerFragmentDoc,
    "\n  query RequesterSearch($search: String, $first: Int!) {\n    customers(search: $search, first: $first) {\n      totalCount\n      nodes {\n        id\n        ...RequesterPicker_customer\n      }\n    }\n  }\n": types.RequesterSearchDocument,
    "\n  mutation CreateView($input: ViewInput!) {\n    createView(input: $input) {\n      id\n      name\n      scope\n      shared\n      count\n      ...ViewSidebar_view\n    }\n  }\n": types.CreateViewDocument,
    "\n  fragment TicketAssignment_ticket on Ticket {\n    id\n    version\n    assigneeId\n    assignee {\n      id\n      username\n    }\n    teamId\n    team {\n      id\n      name\n      memberIds\n    }\n  }\n": types.TicketAssignment_TicketFragmentDoc,
    "\n  mutation TakeTicket($id: Int!, $expectedVersion: Int!) {\n    takeTicket(id: $id, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketAssignment_ticket\n    }\n  }\n": types.TakeTicketDocument,
    "\n  mutation AssignTicket($id: Int!, $teamId: Int, $assigneeId: Int, $expectedVersion: Int!) {\n    assignTicket(id: $id, teamId: $teamId, assigneeId: $assigneeId, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketAssignment_ticket\n    }\n  }\n": types.AssignTicketDocument,
    "\n  fragment TicketForm_ticket on Ticket {\n    id\n    title\n    type\n    priority\n    macroId\n    requesterId\n    assignee {\n      id\n      username\n    }\n    requester {\n      id\n      ...RequesterPicker_customer\n    }\n    description\n    image {\n      id\n      url\n    }\n  }\n": types.TicketForm_TicketFragmentDoc,
    "\n  fragment TicketForm_macro on Macro {\n    id\n    name\n  }\n": types.TicketForm_MacroFragmentDoc,
    "\n  fragment TicketDetail_ticket on Ticket {\n    id\n    title\n    subject\n    type\n    priority\n    status\n    description\n    requesterId\n    assignee {\n      id\n      username\n    }\n    team {\n      id\n      name\n    }\n    macro {\n      id\n      name\n    }\n    requester {\n      id\n      name\n      email\n    }\n    image {\n      id\n      url\n      width\n      height\n    }\n    ...TicketStatusControl_ticket\n    ...TicketAssignment_ticket\n  }\n": types.TicketDetail_TicketFragmentDoc,
    "\n  mutation UpdateTicketProperty($id: Int!, $input: TicketInput!) {\n    updateTicket(id: $id, input: $input) {\n      id\n      type\n      priority\n      status\n      updatedAt\n      version\n      macro {\n        id\n        name\n      }\n    }\n  }\n": types.UpdateTicketPropertyDocument,
    "\n  query RequesterOpenTickets($requesterId: Int!) {\n    tickets(first: 6, filter: { requesterId: $requesterId, status: [OPEN, PENDING] }, orderBy: UPDATED) {\n      nodes {\n        id\n        title\n        status\n      }\n    }\n  }\n": types.RequesterOpenTicketsDocument,
    "\n  fragment TicketRow_ticket on Ticket {\n    id\n    title\n    type\n    priority\n    status\n    requesterId\n    updatedAt\n    awaitingReply\n    requester {\n      id\n      name\n    }\n    image {\n      id\n      url\n    }\n    version\n    assigneeId\n    assignee {\n      id\n      username\n    }\n    teamId\n    team {\n      id\n      name\n      memberIds\n    }\n    searchMatch {\n      in\n      snippet\n      highlights {\n        start\n        length\n      }\n    }\n  }\n": types.TicketRow_TicketFragmentDoc,
    "\n  mutation TakeTicketFromList($id: Int!, $expectedVersion: Int!) {\n    takeTicket(id: $id, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketRow_ticket\n    }\n  }\n": types.TakeTicketFromListDocument,
    "\n  fragment TicketStatusControl_ticket on Ticket {\n    id\n    status\n  }\n": types.TicketStatusControl_TicketFragmentDoc,
    "\n  mutation SetTicketStatus($id: Int!, $status: TicketStatus!) {\n    setTicketStatus(id: $id, status: $status) {\n      id\n      status\n      updatedAt\n      version\n    }\n  }\n": types.SetTicketStatusDocument,
    "\n  fragment ViewSidebar_view on TicketView {\n    id\n    name\n    scope\n    shared\n    count\n  }\n": types.ViewSidebar_ViewFragmentDoc,
    "\n  query ViewTicketPage($id: Int!, $timelineFilter: TimelineFilter!) {\n    ticket(id: $id) {\n      id\n      subject\n      description\n      createdAt\n      requester {\n        id\n        name\n      }\n      ...TicketDetail_ticket\n      ...TicketTimeline_ticket\n      timeline(first: 50, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n": types.ViewTicketPageDocument,
    "\n  mutation DeleteTicket($id: Int!) {\n    deleteTicket(id: $id)\n  }\n": types.DeleteTicketDocument,
    "\n  query AssignmentOptions($after: String) {\n    teams {\n      id\n      name\n      memberIds\n    }\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.AssignmentOptionsDocument,
    "\n  query TicketListIds($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {\n    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {\n      nodes {\n        id\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n": types.TicketListIdsDocument,
    "\n  mutation AcceptRequesterMessage($id: Int!) {\n    acceptRequesterMessage(id: $id) {\n      ...TimelineEntry_requesterMessage\n    }\n  }\n": types.AcceptRequesterMessageDocument,
    "\n  mutation DiscardRequesterMessage($id: Int!) {\n    discardRequesterMessage(id: $id) {\n      ...TimelineEntry_requesterMessage\n    }\n  }\n": types.DiscardRequesterMessageDocument,
    "\n  query MailOriginal($messageId: Int!) {\n    mailOriginal(messageId: $messageId) {\n      subject\n      fromEmail\n      text\n      html\n    }\n  }\n": types.MailOriginalDocument,
    "\n  subscription TicketTimelineEvents($ticketId: Int!, $afterSeq: Int) {\n    ticketTimelineEvents(ticketId: $ticketId, afterSeq: $afterSeq) {\n      __typename\n      ...TimelineEntry_note\n      ...TimelineEntry_change\n      ...TimelineEntry_reply\n      ...TimelineEntry_requesterMessage\n      ... on TicketChange {\n        note {\n          ...TimelineEntry_note\n        }\n      }\n    }\n  }\n": types.TicketTimelineEventsDocument,
    "\n  fragment TicketTimeline_ticket on Ticket {\n    id\n    requesterLink\n    requester {\n      id\n      name\n      email\n    }\n    macro {\n      id\n      name\n    }\n  }\n": types.TicketTimeline_TicketFragmentDoc,
    "\n  mutation ReplyToRequester($ticketId: Int!, $body: String!, $attachments: [Upload!], $setStatus: TicketStatus) {\n    replyToRequester(ticketId: $ticketId, body: $body, attachments: $attachments, setStatus: $setStatus) {\n      __typename\n      ...TimelineEntry_reply\n    }\n  }\n": types.ReplyToRequesterDocument,
    "\n  mutation RevokeRequesterLink($ticketId: Int!) {\n    revokeRequesterLink(ticketId: $ticketId)\n  }\n": types.RevokeRequesterLinkDocument,
    "\n  subscription ReplyDeliveryEvents($ticketId: Int!) {\n    replyDeliveryEvents(ticketId: $ticketId) {\n      id\n      delivery {\n        state\n        attempts\n        lastResponse\n      }\n    }\n  }\n": types.ReplyDeliveryEventsDocument,
    "\n  mutation AddTicketNote($ticketId: Int!, $body: String!) {\n    addTicketNote(ticketId: $ticketId, body: $body) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n": types.AddTicketNoteDocument,
    "\n  mutation EditTicketNote($id: Int!, $body: String!) {\n    editTicketNote(id: $id, body: $body) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n": types.EditTicketNoteDocument,
    "\n  mutation DeleteTicketNote($id: Int!) {\n    deleteTicketNote(id: $id) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n": types.DeleteTicketNoteDocument,
    "\n  query TimelineEntryWrite($ticketId: Int!, $timelineFilter: TimelineFilter!) {\n    ticket(id: $ticketId) {\n      id\n      timeline(first: 1, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n": types.TimelineEntryWriteDocument,
    "\n  fragment TimelineEntry_note on TicketNote {\n    id\n    seq\n    at\n    body\n    editedAt\n    deletedAt\n    author {\n      id\n      username\n    }\n    revisions {\n      id\n      at\n      body\n      editor {\n        id\n        username\n      }\n    }\n  }\n": types.TimelineEntry_NoteFragmentDoc,
    "\n  fragment TimelineEntry_change on TicketChange {\n    seq\n    at\n    kind\n    via\n    noteId\n    actor {\n      kind\n      name\n      user {\n        id\n      }\n    }\n    changes {\n      field\n      from\n      to\n      fromLabel\n      toLabel\n    }\n  }\n": types.TimelineEntry_ChangeFragmentDoc,
    "\n  fragment TimelineEntry_reply on TicketReply {\n    id\n    seq\n    at\n    text: body\n    author {\n      id\n      username\n    }\n    delivery {\n      state\n      attempts\n      lastResponse\n    }\n    attachments {\n      id\n      filename\n      mimeType\n      byteSize\n      url\n    }\n  }\n": types.TimelineEntry_ReplyFragmentDoc,
    "\n  fragment TimelineEntry_requesterMessage on RequesterMessage {\n    id\n    seq\n    at\n    fromEmail\n    text: body\n    via\n    held\n    heldReason\n    discardedAt\n    subject\n    authentication {\n      spf\n      dkim\n      dmarc\n    }\n    attachments {\n      id\n      filename\n      mimeType\n      byteSize\n      url\n    }\n  }\n": types.TimelineEntry_RequesterMessageFragmentDoc,
    "\n  query TicketTimelinePage($ticketId: Int!, $timelineFilter: TimelineFilter!, $after: String) {\n    ticket(id: $ticketId) {\n      id\n      timeline(first: 50, after: $after, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n": types.TicketTimelinePageDocument,
    "\n  query MacroChoices {\n    macros(first: 100, includeShared: true) {\n      nodes {\n        id\n        name\n        description\n        ownerId\n        sharing\n        team {\n          id\n          name\n        }\n      }\n    }\n  }\n": types.MacroChoicesDocument,
    "\n  query RenderMacro($macroId: Int!, $ticketId: Int!) {\n    renderMacro(macroId: $macroId, ticketId: $ticketId)\n  }\n": types.RenderMacroDocument,
    "\n  mutation CreateWebhook($input: WebhookInput!) {\n    createWebhook(input: $input) {\n      secret\n      webhook {\n        id\n        ...WebhookRow_webhook\n      }\n    }\n  }\n": types.CreateWebhookDocument,
    "\n  fragment DeliveryRow_delivery on WebhookDelivery {\n    id\n    event\n    messageId\n    attempt\n    statusCode\n    succeeded\n    durationMs\n    error\n    responseExcerpt\n    createdAt\n  }\n": types.DeliveryRow_DeliveryFragmentDoc,
    "\n  query WebhookPage($id: Int!) {\n    webhook(id: $id) {\n      id\n      url\n      events\n      enabled\n      disabledAt\n      disabledReason\n      consecutiveFailures\n      previousSecretExpiresAt\n      ...WebhookRow_webhook\n      deliveries(first: 50) {\n        nodes {\n          id\n          ...DeliveryRow_delivery\n        }\n        pageInfo {\n          hasNextPage\n        }\n      }\n    }\n  }\n": types.WebhookPageDocument,
    "\n  mutation SendTestWebhook($id: Int!) {\n    sendTestWebhook(id: $id) {\n      id\n      succeeded\n      statusCode\n      error\n      ...DeliveryRow_delivery\n    }\n  }\n": types.SendTestWebhookDocument,
    "\n  mutation RedeliverWebhookDelivery($id: Int!) {\n    redeliverWebhookDelivery(id: $id) {\n      id\n      succeeded\n      statusCode\n      error\n      ...DeliveryRow_delivery\n    }\n  }\n": types.RedeliverWebhookDeliveryDocument,
    "\n  mutation RotateWebhookSecret($id: Int!) {\n    rotateWebhookSecret(id: $id) {\n      secret\n      webhook {\n        id\n        previousSecretExpiresAt\n      }\n    }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  mutation SetWebhookEnabled($id: Int!, $enabled: Boolean!) {\n    updateWebhook(id: $id, input: { enabled: $enabled }) {\n      id\n      enabled\n      disabledAt\n      disabledReason\n      consecutiveFailures\n    }\n  }\n": types.SetWebhookEnabledDocument,
    "\n  mutation DeleteWebhook($id: Int!) {\n    deleteWebhook(id: $id)\n  }\n": types.DeleteWebhookDocument,
    "\n  fragment WebhookRow_webhook on Webhook {\n    id\n    url\n    events\n    enabled\n    disabledReason\n    consecutiveFailures\n  }\n": types.WebhookRow_WebhookFragmentDoc,
    "\n  query WebhooksPage {\n    webhooks {\n      id\n      ...WebhookRow_webhook\n    }\n  }\n": types.WebhooksPageDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminPage($after: String) {\n    teams {\n      id\n      ...TeamCard_team\n    }\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n        ...AgentRoleRow_user\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query AdminPage($after: String) {\n    teams {\n      id\n      ...TeamCard_team\n    }\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n        ...AgentRoleRow_user\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AgentRoleRow_user on User {\n    id\n    username\n    email\n    role\n  }\n"): (typeof documents)["\n  fragment AgentRoleRow_user on User {\n    id\n    username\n    email\n    role\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetUserRole($userId: Int!, $role: Role!) {\n    setUserRole(userId: $userId, role: $role) {\n      id\n      ...AgentRoleRow_user\n    }\n  }\n"): (typeof documents)["\n  mutation SetUserRole($userId: Int!, $role: Role!) {\n    setUserRole(userId: $userId, role: $role) {\n      id\n      ...AgentRoleRow_user\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateTeam($name: String!) {\n    createTeam(name: $name) {\n      id\n      ...TeamCard_team\n    }\n  }\n"): (typeof documents)["\n  mutation CreateTeam($name: String!) {\n    createTeam(name: $name) {\n      id\n      ...TeamCard_team\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TeamCard_team on Team {\n    id\n    name\n    memberIds\n    autoAssign\n  }\n"): (typeof documents)["\n  fragment TeamCard_team on Team {\n    id\n    name\n    memberIds\n    autoAssign\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetTeamAutoAssign($teamId: Int!, $enabled: Boolean!) {\n    setTeamAutoAssign(teamId: $teamId, enabled: $enabled) {\n      id\n      autoAssign\n    }\n  }\n"): (typeof documents)["\n  mutation SetTeamAutoAssign($teamId: Int!, $enabled: Boolean!) {\n    setTeamAutoAssign(teamId: $teamId, enabled: $enabled) {\n      id\n      autoAssign\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddTeamMember($teamId: Int!, $userId: Int!) {\n    addTeamMember(teamId: $teamId, userId: $userId) {\n      id\n      ...TeamCard_team\n    }\n  }\n"): (typeof documents)["\n  mutation AddTeamMember($teamId: Int!, $userId: Int!) {\n    addTeamMember(teamId: $teamId, userId: $userId) {\n      id\n      ...TeamCard_team\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveTeamMember($teamId: Int!, $userId: Int!) {\n    removeTeamMember(teamId: $teamId, userId: $userId) {\n      id\n      ...TeamCard_team\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveTeamMember($teamId: Int!, $userId: Int!) {\n    removeTeamMember(teamId: $teamId, userId: $userId) {\n      id\n      ...TeamCard_team\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ApiTokenRow_token on ApiToken {\n    id\n    name\n    scopes\n    hint\n    createdAt\n    expiresAt\n    lastUsedAt\n  }\n"): (typeof documents)["\n  fragment ApiTokenRow_token on ApiToken {\n    id\n    name\n    scopes\n    hint\n    createdAt\n    expiresAt\n    lastUsedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiTokensPage {\n    apiTokens {\n      id\n      ...ApiTokenRow_token\n    }\n  }\n"): (typeof documents)["\n  query ApiTokensPage {\n    apiTokens {\n      id\n      ...ApiTokenRow_token\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiToken($id: Int!) {\n    revokeApiToken(id: $id) {\n      id\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeApiToken($id: Int!) {\n    revokeApiToken(id: $id) {\n      id\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiToken($input: ApiTokenInput!) {\n    createApiToken(input: $input) {\n      secret\n      token {\n        id\n        ...ApiTokenRow_token\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiToken($input: ApiTokenInput!) {\n    createApiToken(input: $input) {\n      secret\n      token {\n        id\n        ...ApiTokenRow_token\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query List($filter: TicketFilter) {\n    tickets(first: 50, filter: $filter) {\n      totalCount\n      statusCounts {\n        open\n        pending\n        solved\n      }\n      nodes {\n        id\n        status\n        priority\n        type\n        requesterId\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query List($filter: TicketFilter) {\n    tickets(first: 50, filter: $filter) {\n      totalCount\n      statusCounts {\n        open\n        pending\n        solved\n      }\n      nodes {\n        id\n        status\n        priority\n        type\n        requesterId\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ListFacets_ticket on Ticket {\n    status\n    priority\n    type\n    requesterId\n  }\n"): (typeof documents)["\n  fragment ListFacets_ticket on Ticket {\n    status\n    priority\n    type\n    requesterId\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchMatchList($filter: TicketFilter, $viewId: Int) {\n    tickets(first: 50, filter: $filter, viewId: $viewId) {\n      nodes {\n        id\n        title\n        searchMatch {\n          in\n          snippet\n          highlights {\n            start\n            length\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query SearchMatchList($filter: TicketFilter, $viewId: Int) {\n    tickets(first: 50, filter: $filter, viewId: $viewId) {\n      nodes {\n        id\n        title\n        searchMatch {\n          in\n          snippet\n          highlights {\n            start\n            length\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Take($id: Int!) {\n    takeTicket(id: $id, expectedVersion: 1) {\n      id\n      title\n      searchMatch {\n        in\n        snippet\n        highlights {\n          start\n          length\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Take($id: Int!) {\n    takeTicket(id: $id, expectedVersion: 1) {\n      id\n      title\n      searchMatch {\n        in\n        snippet\n        highlights {\n          start\n          length\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n        query Plain($filter: TicketFilter) {\n          tickets(first: 50, filter: $filter) {\n            nodes {\n              id\n              title\n            }\n          }\n        }\n      "): (typeof documents)["\n        query Plain($filter: TicketFilter) {\n          tickets(first: 50, filter: $filter) {\n            nodes {\n              id\n              title\n            }\n          }\n        }\n      "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Login($email: String!, $password: String!) {\n    login(email: $email, password: $password) {\n      id\n      username\n      email\n    }\n  }\n"): (typeof documents)["\n  mutation Login($email: String!, $password: String!) {\n    login(email: $email, password: $password) {\n      id\n      username\n      email\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) {\n      id\n      username\n      email\n    }\n  }\n"): (typeof documents)["\n  mutation Signup($input: SignupInput!) {\n    signup(input: $input) {\n      id\n      username\n      email\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Logout {\n    logout\n  }\n"): (typeof documents)["\n  mutation Logout {\n    logout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Root {\n    me {\n      id\n      username\n      email\n      role\n    }\n  }\n"): (typeof documents)["\n  query Root {\n    me {\n      id\n      username\n      email\n      role\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerEmailAvailable($email: String!, $name: String) {\n    customerEmailAvailable(email: $email, name: $name)\n  }\n"): (typeof documents)["\n  query CustomerEmailAvailable($email: String!, $name: String) {\n    customerEmailAvailable(email: $email, name: $name)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateCustomer($input: CustomerInput!) {\n    createCustomer(input: $input) {\n      id\n      ...CustomerRow_customer\n      ...RequesterPicker_customer\n    }\n  }\n"): (typeof documents)["\n  mutation CreateCustomer($input: CustomerInput!) {\n    createCustomer(input: $input) {\n      id\n      ...CustomerRow_customer\n      ...RequesterPicker_customer\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateCustomer($id: Int!, $input: CustomerInput!) {\n    updateCustomer(id: $id, input: $input) {\n      id\n      ...CustomerRow_customer\n      ...RequesterPicker_customer\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateCustomer($id: Int!, $input: CustomerInput!) {\n    updateCustomer(id: $id, input: $input) {\n      id\n      ...CustomerRow_customer\n      ...RequesterPicker_customer\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CustomerRow_customer on Customer {\n    id\n    ownerId\n    name\n    email\n  }\n"): (typeof documents)["\n  fragment CustomerRow_customer on Customer {\n    id\n    ownerId\n    name\n    email\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomersPage($first: Int!, $after: String) {\n    customers(first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        ...CustomerRow_customer\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"): (typeof documents)["\n  query CustomersPage($first: Int!, $after: String) {\n    customers(first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        ...CustomerRow_customer\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteCustomer($id: Int!) {\n    deleteCustomer(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteCustomer($id: Int!) {\n    deleteCustomer(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveMessageEvents {\n    messageEvents {\n      kind\n      id\n      senderId\n      receiverId\n      message {\n        id\n        senderId\n        receiverId\n        ...MessageCard_message\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription LiveMessageEvents {\n    messageEvents {\n      kind\n      id\n      senderId\n      receiverId\n      message {\n        id\n        senderId\n        receiverId\n        ...MessageCard_message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveTicketEvents {\n    ticketEvents {\n      kind\n      id\n      ticket {\n        id\n        ...TicketRow_ticket\n        ...TicketDetail_ticket\n        ...TicketForm_ticket\n        ...TicketStatusControl_ticket\n        ...TicketAssignment_ticket\n        assigneeId\n      }\n      previous {\n        status\n        priority\n        type\n        requesterId\n      }\n      current {\n        status\n        priority\n        type\n        requesterId\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription LiveTicketEvents {\n    ticketEvents {\n      kind\n      id\n      ticket {\n        id\n        ...TicketRow_ticket\n        ...TicketDetail_ticket\n        ...TicketForm_ticket\n        ...TicketStatusControl_ticket\n        ...TicketAssignment_ticket\n        assigneeId\n      }\n      previous {\n        status\n        priority\n        type\n        requesterId\n      }\n      current {\n        status\n        priority\n        type\n        requesterId\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveCustomerEvents {\n    customerEvents {\n      kind\n      id\n      customer {\n        id\n        ...CustomerRow_customer\n        ...RequesterPicker_customer\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription LiveCustomerEvents {\n    customerEvents {\n      kind\n      id\n      customer {\n        id\n        ...CustomerRow_customer\n        ...RequesterPicker_customer\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveMacroEvents {\n    macroEvents {\n      kind\n      id\n      macro {\n        id\n        ...MacroCard_macro\n        ...TicketForm_macro\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription LiveMacroEvents {\n    macroEvents {\n      kind\n      id\n      macro {\n        id\n        ...MacroCard_macro\n        ...TicketForm_macro\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LivePresenceEvents {\n    presenceEvents {\n      changes {\n        userId\n        online\n        version\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription LivePresenceEvents {\n    presenceEvents {\n      changes {\n        userId\n        online\n        version\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveTypingEvents {\n    typingEvents {\n      senderId\n    }\n  }\n"): (typeof documents)["\n  subscription LiveTypingEvents {\n    typingEvents {\n      senderId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UnreadCount {\n    unreadMessageCount\n  }\n"): (typeof documents)["\n  query UnreadCount {\n    unreadMessageCount\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConversationUnread_conversation on Conversation {\n    partnerId\n    unreadCount\n    lastReadMessageId\n  }\n"): (typeof documents)["\n  fragment ConversationUnread_conversation on Conversation {\n    partnerId\n    unreadCount\n    lastReadMessageId\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveUnreadCountEvents {\n    unreadCountEvents {\n      reason\n      unreadMessageCount\n      conversation {\n        partnerId\n        ...ConversationUnread_conversation\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription LiveUnreadCountEvents {\n    unreadCountEvents {\n      reason\n      unreadMessageCount\n      conversation {\n        partnerId\n        ...ConversationUnread_conversation\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveViewCountEvents {\n    viewCountEvents {\n      viewId\n      count\n      removed\n      view {\n        id\n        name\n        count\n        scope\n        shared\n        team {\n          id\n          name\n        }\n        filter {\n          priority\n          requesterId\n          search\n          status\n          type\n        }\n        ...ViewSidebar_view\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription LiveViewCountEvents {\n    viewCountEvents {\n      viewId\n      count\n      removed\n      view {\n        id\n        name\n        count\n        scope\n        shared\n        team {\n          id\n          name\n        }\n        filter {\n          priority\n          requesterId\n          search\n          status\n          type\n        }\n        ...ViewSidebar_view\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MacroCard_macro on Macro {\n    id\n    ownerId\n    name\n    description\n  }\n"): (typeof documents)["\n  fragment MacroCard_macro on Macro {\n    id\n    ownerId\n    name\n    description\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateMacro($input: MacroInput!) {\n    createMacro(input: $input) {\n      id\n      ...MacroCard_macro\n      ...TicketForm_macro\n    }\n  }\n"): (typeof documents)["\n  mutation CreateMacro($input: MacroInput!) {\n    createMacro(input: $input) {\n      id\n      ...MacroCard_macro\n      ...TicketForm_macro\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateMacro($id: Int!, $input: MacroInput!) {\n    updateMacro(id: $id, input: $input) {\n      id\n      ...MacroCard_macro\n      ...TicketForm_macro\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateMacro($id: Int!, $input: MacroInput!) {\n    updateMacro(id: $id, input: $input) {\n      id\n      ...MacroCard_macro\n      ...TicketForm_macro\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MacrosPage($first: Int!, $after: String) {\n    macros(first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        ...MacroCard_macro\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"): (typeof documents)["\n  query MacrosPage($first: Int!, $after: String) {\n    macros(first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        ...MacroCard_macro\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteMacro($id: Int!) {\n    deleteMacro(id: $id) {\n      id\n      movedTicketIds\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteMacro($id: Int!) {\n    deleteMacro(id: $id) {\n      id\n      movedTicketIds\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConversationMessages($withUserId: Int!, $after: String) {\n    messages(withUserId: $withUserId, first: 50, after: $after) {\n      totalCount\n      nodes {\n        id\n        senderId\n        receiverId\n        ...MessageCard_message\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConversationMessages($withUserId: Int!, $after: String) {\n    messages(withUserId: $withUserId, first: 50, after: $after) {\n      totalCount\n      nodes {\n        id\n        senderId\n        receiverId\n        ...MessageCard_message\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendMessage($receiverId: Int!, $text: String!) {\n    sendMessage(receiverId: $receiverId, text: $text) {\n      id\n      senderId\n      receiverId\n      ...MessageCard_message\n    }\n  }\n"): (typeof documents)["\n  mutation SendMessage($receiverId: Int!, $text: String!) {\n    sendMessage(receiverId: $receiverId, text: $text) {\n      id\n      senderId\n      receiverId\n      ...MessageCard_message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditMessage($id: Int!, $text: String!) {\n    editMessage(id: $id, text: $text) {\n      id\n      ...MessageCard_message\n    }\n  }\n"): (typeof documents)["\n  mutation EditMessage($id: Int!, $text: String!) {\n    editMessage(id: $id, text: $text) {\n      id\n      ...MessageCard_message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteMessage($id: Int!) {\n    deleteMessage(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteMessage($id: Int!) {\n    deleteMessage(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MarkConversationRead($partnerId: Int!, $upToMessageId: Int) {\n    markConversationRead(partnerId: $partnerId, upToMessageId: $upToMessageId) {\n      partnerId\n      ...ConversationUnread_conversation\n    }\n  }\n"): (typeof documents)["\n  mutation MarkConversationRead($partnerId: Int!, $upToMessageId: Int) {\n    markConversationRead(partnerId: $partnerId, upToMessageId: $upToMessageId) {\n      partnerId\n      ...ConversationUnread_conversation\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NotifyTyping($partnerId: Int!) {\n    notifyTyping(partnerId: $partnerId)\n  }\n"): (typeof documents)["\n  mutation NotifyTyping($partnerId: Int!) {\n    notifyTyping(partnerId: $partnerId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MessageCard_message on Message {\n    id\n    text\n    senderId\n    createdAt\n    updatedAt\n    sender {\n      id\n      username\n    }\n  }\n"): (typeof documents)["\n  fragment MessageCard_message on Message {\n    id\n    text\n    senderId\n    createdAt\n    updatedAt\n    sender {\n      id\n      username\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MessageCenter($after: String) {\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n        email\n        online\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    conversations(first: 100) {\n      nodes {\n        partnerId\n        unreadCount\n        ...ConversationUnread_conversation\n      }\n    }\n  }\n"): (typeof documents)["\n  query MessageCenter($after: String) {\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n        email\n        online\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    conversations(first: 100) {\n      nodes {\n        partnerId\n        unreadCount\n        ...ConversationUnread_conversation\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ReportsPage($input: ReportInput!) {\n    report(input: $input) {\n      totals {\n        created\n        solved\n        reopened\n        backlog\n        firstResponse {\n          count\n          median\n          p90\n        }\n        firstResolution {\n          count\n          median\n          p90\n        }\n        resolution {\n          count\n          median\n          p90\n        }\n      }\n      series {\n        bucketStart\n        created\n        solved\n        reopened\n        backlog\n        firstResponse {\n          count\n          median\n          p90\n        }\n        firstResolution {\n          count\n          median\n          p90\n        }\n        resolution {\n          count\n          median\n          p90\n        }\n      }\n      groups {\n        key\n        label\n        totals {\n          created\n          solved\n          reopened\n          backlog\n          firstResponse {\n            count\n            median\n            p90\n          }\n          firstResolution {\n            count\n            median\n            p90\n          }\n          resolution {\n            count\n            median\n            p90\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ReportsPage($input: ReportInput!) {\n    report(input: $input) {\n      totals {\n        created\n        solved\n        reopened\n        backlog\n        firstResponse {\n          count\n          median\n          p90\n        }\n        firstResolution {\n          count\n          median\n          p90\n        }\n        resolution {\n          count\n          median\n          p90\n        }\n      }\n      series {\n        bucketStart\n        created\n        solved\n        reopened\n        backlog\n        firstResponse {\n          count\n          median\n          p90\n        }\n        firstResolution {\n          count\n          median\n          p90\n        }\n        resolution {\n          count\n          median\n          p90\n        }\n      }\n      groups {\n        key\n        label\n        totals {\n          created\n          solved\n          reopened\n          backlog\n          firstResponse {\n            count\n            median\n            p90\n          }\n          firstResolution {\n            count\n            median\n            p90\n          }\n          resolution {\n            count\n            median\n            p90\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CreateTicketPage($after: String) {\n    macros(first: 100, after: $after) {\n      nodes {\n        id\n        ...TicketForm_macro\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query CreateTicketPage($after: String) {\n    macros(first: 100, after: $after) {\n      nodes {\n        id\n        ...TicketForm_macro\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateTicket($input: TicketInput!, $image: Upload, $teamId: Int, $assigneeId: Int) {\n    createTicket(input: $input, image: $image, teamId: $teamId, assigneeId: $assigneeId) {\n      id\n      ...TicketRow_ticket\n      ...TicketDetail_ticket\n      ...TicketForm_ticket\n      ...TicketStatusControl_ticket\n      ...TicketAssignment_ticket\n    }\n  }\n"): (typeof documents)["\n  mutation CreateTicket($input: TicketInput!, $image: Upload, $teamId: Int, $assigneeId: Int) {\n    createTicket(input: $input, image: $image, teamId: $teamId, assigneeId: $assigneeId) {\n      id\n      ...TicketRow_ticket\n      ...TicketDetail_ticket\n      ...TicketForm_ticket\n      ...TicketStatusControl_ticket\n      ...TicketAssignment_ticket\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardPage($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {\n    views {\n      id\n      name\n      count\n      scope\n      team {\n        id\n        name\n      }\n      filter {\n        priority\n        requesterId\n        search\n        status\n        type\n      }\n      ...ViewSidebar_view\n    }\n    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {\n      totalCount\n      statusCounts {\n        open\n        pending\n        solved\n      }\n      nodes {\n        id\n        ...TicketRow_ticket\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"): (typeof documents)["\n  query DashboardPage($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {\n    views {\n      id\n      name\n      count\n      scope\n      team {\n        id\n        name\n      }\n      filter {\n        priority\n        requesterId\n        search\n        status\n        type\n      }\n      ...ViewSidebar_view\n    }\n    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {\n      totalCount\n      statusCounts {\n        open\n        pending\n        solved\n      }\n      nodes {\n        id\n        ...TicketRow_ticket\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EditTicketPage($id: Int!, $after: String) {\n    ticket(id: $id) {\n      id\n      ...TicketForm_ticket\n    }\n    macros(first: 100, after: $after) {\n      nodes {\n        id\n        ...TicketForm_macro\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query EditTicketPage($id: Int!, $after: String) {\n    ticket(id: $id) {\n      id\n      ...TicketForm_ticket\n    }\n    macros(first: 100, after: $after) {\n      nodes {\n        id\n        ...TicketForm_macro\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateTicket($id: Int!, $input: TicketInput!, $image: Upload) {\n    updateTicket(id: $id, input: $input, image: $image) {\n      id\n      ...TicketRow_ticket\n      ...TicketDetail_ticket\n      ...TicketForm_ticket\n      version\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateTicket($id: Int!, $input: TicketInput!, $image: Upload) {\n    updateTicket(id: $id, input: $input, image: $image) {\n      id\n      ...TicketRow_ticket\n      ...TicketDetail_ticket\n      ...TicketForm_ticket\n      version\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RequesterPicker_customer on Customer {\n    id\n    name\n    email\n  }\n"): (typeof documents)["\n  fragment RequesterPicker_customer on Customer {\n    id\n    name\n    email\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RequesterSearch($search: String, $first: Int!) {\n    customers(search: $search, first: $first) {\n      totalCount\n      nodes {\n        id\n        ...RequesterPicker_customer\n      }\n    }\n  }\n"): (typeof documents)["\n  query RequesterSearch($search: String, $first: Int!) {\n    customers(search: $search, first: $first) {\n      totalCount\n      nodes {\n        id\n        ...RequesterPicker_customer\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateView($input: ViewInput!) {\n    createView(input: $input) {\n      id\n      name\n      scope\n      shared\n      count\n      ...ViewSidebar_view\n    }\n  }\n"): (typeof documents)["\n  mutation CreateView($input: ViewInput!) {\n    createView(input: $input) {\n      id\n      name\n      scope\n      shared\n      count\n      ...ViewSidebar_view\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TicketAssignment_ticket on Ticket {\n    id\n    version\n    assigneeId\n    assignee {\n      id\n      username\n    }\n    teamId\n    team {\n      id\n      name\n      memberIds\n    }\n  }\n"): (typeof documents)["\n  fragment TicketAssignment_ticket on Ticket {\n    id\n    version\n    assigneeId\n    assignee {\n      id\n      username\n    }\n    teamId\n    team {\n      id\n      name\n      memberIds\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TakeTicket($id: Int!, $expectedVersion: Int!) {\n    takeTicket(id: $id, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketAssignment_ticket\n    }\n  }\n"): (typeof documents)["\n  mutation TakeTicket($id: Int!, $expectedVersion: Int!) {\n    takeTicket(id: $id, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketAssignment_ticket\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AssignTicket($id: Int!, $teamId: Int, $assigneeId: Int, $expectedVersion: Int!) {\n    assignTicket(id: $id, teamId: $teamId, assigneeId: $assigneeId, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketAssignment_ticket\n    }\n  }\n"): (typeof documents)["\n  mutation AssignTicket($id: Int!, $teamId: Int, $assigneeId: Int, $expectedVersion: Int!) {\n    assignTicket(id: $id, teamId: $teamId, assigneeId: $assigneeId, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketAssignment_ticket\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TicketForm_ticket on Ticket {\n    id\n    title\n    type\n    priority\n    macroId\n    requesterId\n    assignee {\n      id\n      username\n    }\n    requester {\n      id\n      ...RequesterPicker_customer\n    }\n    description\n    image {\n      id\n      url\n    }\n  }\n"): (typeof documents)["\n  fragment TicketForm_ticket on Ticket {\n    id\n    title\n    type\n    priority\n    macroId\n    requesterId\n    assignee {\n      id\n      username\n    }\n    requester {\n      id\n      ...RequesterPicker_customer\n    }\n    description\n    image {\n      id\n      url\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TicketForm_macro on Macro {\n    id\n    name\n  }\n"): (typeof documents)["\n  fragment TicketForm_macro on Macro {\n    id\n    name\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TicketDetail_ticket on Ticket {\n    id\n    title\n    subject\n    type\n    priority\n    status\n    description\n    requesterId\n    assignee {\n      id\n      username\n    }\n    team {\n      id\n      name\n    }\n    macro {\n      id\n      name\n    }\n    requester {\n      id\n      name\n      email\n    }\n    image {\n      id\n      url\n      width\n      height\n    }\n    ...TicketStatusControl_ticket\n    ...TicketAssignment_ticket\n  }\n"): (typeof documents)["\n  fragment TicketDetail_ticket on Ticket {\n    id\n    title\n    subject\n    type\n    priority\n    status\n    description\n    requesterId\n    assignee {\n      id\n      username\n    }\n    team {\n      id\n      name\n    }\n    macro {\n      id\n      name\n    }\n    requester {\n      id\n      name\n      email\n    }\n    image {\n      id\n      url\n      width\n      height\n    }\n    ...TicketStatusControl_ticket\n    ...TicketAssignment_ticket\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateTicketProperty($id: Int!, $input: TicketInput!) {\n    updateTicket(id: $id, input: $input) {\n      id\n      type\n      priority\n      status\n      updatedAt\n      version\n      macro {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateTicketProperty($id: Int!, $input: TicketInput!) {\n    updateTicket(id: $id, input: $input) {\n      id\n      type\n      priority\n      status\n      updatedAt\n      version\n      macro {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RequesterOpenTickets($requesterId: Int!) {\n    tickets(first: 6, filter: { requesterId: $requesterId, status: [OPEN, PENDING] }, orderBy: UPDATED) {\n      nodes {\n        id\n        title\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  query RequesterOpenTickets($requesterId: Int!) {\n    tickets(first: 6, filter: { requesterId: $requesterId, status: [OPEN, PENDING] }, orderBy: UPDATED) {\n      nodes {\n        id\n        title\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TicketRow_ticket on Ticket {\n    id\n    title\n    type\n    priority\n    status\n    requesterId\n    updatedAt\n    awaitingReply\n    requester {\n      id\n      name\n    }\n    image {\n      id\n      url\n    }\n    version\n    assigneeId\n    assignee {\n      id\n      username\n    }\n    teamId\n    team {\n      id\n      name\n      memberIds\n    }\n    searchMatch {\n      in\n      snippet\n      highlights {\n        start\n        length\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment TicketRow_ticket on Ticket {\n    id\n    title\n    type\n    priority\n    status\n    requesterId\n    updatedAt\n    awaitingReply\n    requester {\n      id\n      name\n    }\n    image {\n      id\n      url\n    }\n    version\n    assigneeId\n    assignee {\n      id\n      username\n    }\n    teamId\n    team {\n      id\n      name\n      memberIds\n    }\n    searchMatch {\n      in\n      snippet\n      highlights {\n        start\n        length\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TakeTicketFromList($id: Int!, $expectedVersion: Int!) {\n    takeTicket(id: $id, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketRow_ticket\n    }\n  }\n"): (typeof documents)["\n  mutation TakeTicketFromList($id: Int!, $expectedVersion: Int!) {\n    takeTicket(id: $id, expectedVersion: $expectedVersion) {\n      id\n      updatedAt\n      ...TicketRow_ticket\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TicketStatusControl_ticket on Ticket {\n    id\n    status\n  }\n"): (typeof documents)["\n  fragment TicketStatusControl_ticket on Ticket {\n    id\n    status\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetTicketStatus($id: Int!, $status: TicketStatus!) {\n    setTicketStatus(id: $id, status: $status) {\n      id\n      status\n      updatedAt\n      version\n    }\n  }\n"): (typeof documents)["\n  mutation SetTicketStatus($id: Int!, $status: TicketStatus!) {\n    setTicketStatus(id: $id, status: $status) {\n      id\n      status\n      updatedAt\n      version\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ViewSidebar_view on TicketView {\n    id\n    name\n    scope\n    shared\n    count\n  }\n"): (typeof documents)["\n  fragment ViewSidebar_view on TicketView {\n    id\n    name\n    scope\n    shared\n    count\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ViewTicketPage($id: Int!, $timelineFilter: TimelineFilter!) {\n    ticket(id: $id) {\n      id\n      subject\n      description\n      createdAt\n      requester {\n        id\n        name\n      }\n      ...TicketDetail_ticket\n      ...TicketTimeline_ticket\n      timeline(first: 50, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ViewTicketPage($id: Int!, $timelineFilter: TimelineFilter!) {\n    ticket(id: $id) {\n      id\n      subject\n      description\n      createdAt\n      requester {\n        id\n        name\n      }\n      ...TicketDetail_ticket\n      ...TicketTimeline_ticket\n      timeline(first: 50, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteTicket($id: Int!) {\n    deleteTicket(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteTicket($id: Int!) {\n    deleteTicket(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AssignmentOptions($after: String) {\n    teams {\n      id\n      name\n      memberIds\n    }\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query AssignmentOptions($after: String) {\n    teams {\n      id\n      name\n      memberIds\n    }\n    users(first: 100, after: $after) {\n      nodes {\n        id\n        username\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TicketListIds($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {\n    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {\n      nodes {\n        id\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"): (typeof documents)["\n  query TicketListIds($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {\n    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {\n      nodes {\n        id\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AcceptRequesterMessage($id: Int!) {\n    acceptRequesterMessage(id: $id) {\n      ...TimelineEntry_requesterMessage\n    }\n  }\n"): (typeof documents)["\n  mutation AcceptRequesterMessage($id: Int!) {\n    acceptRequesterMessage(id: $id) {\n      ...TimelineEntry_requesterMessage\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DiscardRequesterMessage($id: Int!) {\n    discardRequesterMessage(id: $id) {\n      ...TimelineEntry_requesterMessage\n    }\n  }\n"): (typeof documents)["\n  mutation DiscardRequesterMessage($id: Int!) {\n    discardRequesterMessage(id: $id) {\n      ...TimelineEntry_requesterMessage\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MailOriginal($messageId: Int!) {\n    mailOriginal(messageId: $messageId) {\n      subject\n      fromEmail\n      text\n      html\n    }\n  }\n"): (typeof documents)["\n  query MailOriginal($messageId: Int!) {\n    mailOriginal(messageId: $messageId) {\n      subject\n      fromEmail\n      text\n      html\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TicketTimelineEvents($ticketId: Int!, $afterSeq: Int) {\n    ticketTimelineEvents(ticketId: $ticketId, afterSeq: $afterSeq) {\n      __typename\n      ...TimelineEntry_note\n      ...TimelineEntry_change\n      ...TimelineEntry_reply\n      ...TimelineEntry_requesterMessage\n      ... on TicketChange {\n        note {\n          ...TimelineEntry_note\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription TicketTimelineEvents($ticketId: Int!, $afterSeq: Int) {\n    ticketTimelineEvents(ticketId: $ticketId, afterSeq: $afterSeq) {\n      __typename\n      ...TimelineEntry_note\n      ...TimelineEntry_change\n      ...TimelineEntry_reply\n      ...TimelineEntry_requesterMessage\n      ... on TicketChange {\n        note {\n          ...TimelineEntry_note\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TicketTimeline_ticket on Ticket {\n    id\n    requesterLink\n    requester {\n      id\n      name\n      email\n    }\n    macro {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  fragment TicketTimeline_ticket on Ticket {\n    id\n    requesterLink\n    requester {\n      id\n      name\n      email\n    }\n    macro {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReplyToRequester($ticketId: Int!, $body: String!, $attachments: [Upload!], $setStatus: TicketStatus) {\n    replyToRequester(ticketId: $ticketId, body: $body, attachments: $attachments, setStatus: $setStatus) {\n      __typename\n      ...TimelineEntry_reply\n    }\n  }\n"): (typeof documents)["\n  mutation ReplyToRequester($ticketId: Int!, $body: String!, $attachments: [Upload!], $setStatus: TicketStatus) {\n    replyToRequester(ticketId: $ticketId, body: $body, attachments: $attachments, setStatus: $setStatus) {\n      __typename\n      ...TimelineEntry_reply\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeRequesterLink($ticketId: Int!) {\n    revokeRequesterLink(ticketId: $ticketId)\n  }\n"): (typeof documents)["\n  mutation RevokeRequesterLink($ticketId: Int!) {\n    revokeRequesterLink(ticketId: $ticketId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ReplyDeliveryEvents($ticketId: Int!) {\n    replyDeliveryEvents(ticketId: $ticketId) {\n      id\n      delivery {\n        state\n        attempts\n        lastResponse\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ReplyDeliveryEvents($ticketId: Int!) {\n    replyDeliveryEvents(ticketId: $ticketId) {\n      id\n      delivery {\n        state\n        attempts\n        lastResponse\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddTicketNote($ticketId: Int!, $body: String!) {\n    addTicketNote(ticketId: $ticketId, body: $body) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n"): (typeof documents)["\n  mutation AddTicketNote($ticketId: Int!, $body: String!) {\n    addTicketNote(ticketId: $ticketId, body: $body) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditTicketNote($id: Int!, $body: String!) {\n    editTicketNote(id: $id, body: $body) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n"): (typeof documents)["\n  mutation EditTicketNote($id: Int!, $body: String!) {\n    editTicketNote(id: $id, body: $body) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteTicketNote($id: Int!) {\n    deleteTicketNote(id: $id) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteTicketNote($id: Int!) {\n    deleteTicketNote(id: $id) {\n      __typename\n      ...TimelineEntry_note\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TimelineEntryWrite($ticketId: Int!, $timelineFilter: TimelineFilter!) {\n    ticket(id: $ticketId) {\n      id\n      timeline(first: 1, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query TimelineEntryWrite($ticketId: Int!, $timelineFilter: TimelineFilter!) {\n    ticket(id: $ticketId) {\n      id\n      timeline(first: 1, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TimelineEntry_note on TicketNote {\n    id\n    seq\n    at\n    body\n    editedAt\n    deletedAt\n    author {\n      id\n      username\n    }\n    revisions {\n      id\n      at\n      body\n      editor {\n        id\n        username\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment TimelineEntry_note on TicketNote {\n    id\n    seq\n    at\n    body\n    editedAt\n    deletedAt\n    author {\n      id\n      username\n    }\n    revisions {\n      id\n      at\n      body\n      editor {\n        id\n        username\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TimelineEntry_change on TicketChange {\n    seq\n    at\n    kind\n    via\n    noteId\n    actor {\n      kind\n      name\n      user {\n        id\n      }\n    }\n    changes {\n      field\n      from\n      to\n      fromLabel\n      toLabel\n    }\n  }\n"): (typeof documents)["\n  fragment TimelineEntry_change on TicketChange {\n    seq\n    at\n    kind\n    via\n    noteId\n    actor {\n      kind\n      name\n      user {\n        id\n      }\n    }\n    changes {\n      field\n      from\n      to\n      fromLabel\n      toLabel\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TimelineEntry_reply on TicketReply {\n    id\n    seq\n    at\n    text: body\n    author {\n      id\n      username\n    }\n    delivery {\n      state\n      attempts\n      lastResponse\n    }\n    attachments {\n      id\n      filename\n      mimeType\n      byteSize\n      url\n    }\n  }\n"): (typeof documents)["\n  fragment TimelineEntry_reply on TicketReply {\n    id\n    seq\n    at\n    text: body\n    author {\n      id\n      username\n    }\n    delivery {\n      state\n      attempts\n      lastResponse\n    }\n    attachments {\n      id\n      filename\n      mimeType\n      byteSize\n      url\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TimelineEntry_requesterMessage on RequesterMessage {\n    id\n    seq\n    at\n    fromEmail\n    text: body\n    via\n    held\n    heldReason\n    discardedAt\n    subject\n    authentication {\n      spf\n      dkim\n      dmarc\n    }\n    attachments {\n      id\n      filename\n      mimeType\n      byteSize\n      url\n    }\n  }\n"): (typeof documents)["\n  fragment TimelineEntry_requesterMessage on RequesterMessage {\n    id\n    seq\n    at\n    fromEmail\n    text: body\n    via\n    held\n    heldReason\n    discardedAt\n    subject\n    authentication {\n      spf\n      dkim\n      dmarc\n    }\n    attachments {\n      id\n      filename\n      mimeType\n      byteSize\n      url\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TicketTimelinePage($ticketId: Int!, $timelineFilter: TimelineFilter!, $after: String) {\n    ticket(id: $ticketId) {\n      id\n      timeline(first: 50, after: $after, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query TicketTimelinePage($ticketId: Int!, $timelineFilter: TimelineFilter!, $after: String) {\n    ticket(id: $ticketId) {\n      id\n      timeline(first: 50, after: $after, filter: $timelineFilter) {\n        nodes {\n          __typename\n          ...TimelineEntry_note\n          ...TimelineEntry_change\n          ...TimelineEntry_reply\n          ...TimelineEntry_requesterMessage\n        }\n        pageInfo {\n          endCursor\n          hasNextPage\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MacroChoices {\n    macros(first: 100, includeShared: true) {\n      nodes {\n        id\n        name\n        description\n        ownerId\n        sharing\n        team {\n          id\n          name\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query MacroChoices {\n    macros(first: 100, includeShared: true) {\n      nodes {\n        id\n        name\n        description\n        ownerId\n        sharing\n        team {\n          id\n          name\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RenderMacro($macroId: Int!, $ticketId: Int!) {\n    renderMacro(macroId: $macroId, ticketId: $ticketId)\n  }\n"): (typeof documents)["\n  query RenderMacro($macroId: Int!, $ticketId: Int!) {\n    renderMacro(macroId: $macroId, ticketId: $ticketId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWebhook($input: WebhookInput!) {\n    createWebhook(input: $input) {\n      secret\n      webhook {\n        id\n        ...WebhookRow_webhook\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateWebhook($input: WebhookInput!) {\n    createWebhook(input: $input) {\n      secret\n      webhook {\n        id\n        ...WebhookRow_webhook\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DeliveryRow_delivery on WebhookDelivery {\n    id\n    event\n    messageId\n    attempt\n    statusCode\n    succeeded\n    durationMs\n    error\n    responseExcerpt\n    createdAt\n  }\n"): (typeof documents)["\n  fragment DeliveryRow_delivery on WebhookDelivery {\n    id\n    event\n    messageId\n    attempt\n    statusCode\n    succeeded\n    durationMs\n    error\n    responseExcerpt\n    createdAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookPage($id: Int!) {\n    webhook(id: $id) {\n      id\n      url\n      events\n      enabled\n      disabledAt\n      disabledReason\n      consecutiveFailures\n      previousSecretExpiresAt\n      ...WebhookRow_webhook\n      deliveries(first: 50) {\n        nodes {\n          id\n          ...DeliveryRow_delivery\n        }\n        pageInfo {\n          hasNextPage\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query WebhookPage($id: Int!) {\n    webhook(id: $id) {\n      id\n      url\n      events\n      enabled\n      disabledAt\n      disabledReason\n      consecutiveFailures\n      previousSecretExpiresAt\n      ...WebhookRow_webhook\n      deliveries(first: 50) {\n        nodes {\n          id\n          ...DeliveryRow_delivery\n        }\n        pageInfo {\n          hasNextPage\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendTestWebhook($id: Int!) {\n    sendTestWebhook(id: $id) {\n      id\n      succeeded\n      statusCode\n      error\n      ...DeliveryRow_delivery\n    }\n  }\n"): (typeof documents)["\n  mutation SendTestWebhook($id: Int!) {\n    sendTestWebhook(id: $id) {\n      id\n      succeeded\n      statusCode\n      error\n      ...DeliveryRow_delivery\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverWebhookDelivery($id: Int!) {\n    redeliverWebhookDelivery(id: $id) {\n      id\n      succeeded\n      statusCode\n      error\n      ...DeliveryRow_delivery\n    }\n  }\n"): (typeof documents)["\n  mutation RedeliverWebhookDelivery($id: Int!) {\n    redeliverWebhookDelivery(id: $id) {\n      id\n      succeeded\n      statusCode\n      error\n      ...DeliveryRow_delivery\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret($id: Int!) {\n    rotateWebhookSecret(id: $id) {\n      secret\n      webhook {\n        id\n        previousSecretExpiresAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RotateWebhookSecret($id: Int!) {\n    rotateWebhookSecret(id: $id) {\n      secret\n      webhook {\n        id\n        previousSecretExpiresAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetWebhookEnabled($id: Int!, $enabled: Boolean!) {\n    updateWebhook(id: $id, input: { enabled: $enabled }) {\n      id\n      enabled\n      disabledAt\n      disabledReason\n      consecutiveFailures\n    }\n  }\n"): (typeof documents)["\n  mutation SetWebhookEnabled($id: Int!, $enabled: Boolean!) {\n    updateWebhook(id: $id, input: { enabled: $enabled }) {\n      id\n      enabled\n      disabledAt\n      disabledReason\n      consecutiveFailures\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteWebhook($id: Int!) {\n    deleteWebhook(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteWebhook($id: Int!) {\n    deleteWebhook(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookRow_webhook on Webhook {\n    id\n    url\n    events\n    enabled\n    disabledReason\n    consecutiveFailures\n  }\n"): (typeof documents)["\n  fragment WebhookRow_webhook on Webhook {\n    id\n    url\n    events\n    enabled\n    disabledReason\n    consecutiveFailures\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhooksPage {\n    webhooks {\n      id\n      ...WebhookRow_webhook\n    }\n  }\n"): (typeof documents)["\n  query WebhooksPage {\n    webhooks {\n      id\n      ...WebhookRow_webhook\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;