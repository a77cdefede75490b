import { MessageCenter } from './MessageCenter';

export default function MessageCenterPage() {
  return (
    <section className="page">
      <header className="page-header">
        <h1>Message Center</h1>
        <p className="page-subtitle">One-to-one conversations with the other agents.</p>
      </header>
      <div className="card message-card-wrap">
        <MessageCenter />
      </div>
    </section>
  );
}
