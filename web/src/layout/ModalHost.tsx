import { Component, lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { loadChunk } from './loadChunk';
import { ReloadButton, routeErrorText } from './RouteError';
import { Modal } from '../ui/Modal';
import { ModalContext, type GlobalModal, type ModalControls } from '../app/modals';
import '../ui/forms.css';

// Each modal's code loads when it first opens, so the landing page stays small; a stale tab reloads once (loadChunk).
const LoginModal = lazy(() => loadChunk(() => import('../session/LoginForm')).then((m) => ({ default: m.LoginModal })));
const SignupModal = lazy(() => loadChunk(() => import('../session/SignupForm')).then((m) => ({ default: m.SignupModal })));
const CreateCustomerModal = lazy(() => loadChunk(() => import('../customers/CustomerForm')).then((m) => ({ default: m.CreateCustomerModal })));
const CreateMacroModal = lazy(() => loadChunk(() => import('../macros/MacroForm')).then((m) => ({ default: m.CreateMacroModal })));
const MessageCenterModal = lazy(() => loadChunk(() => import('../messages/MessageCenter')).then((m) => ({ default: m.MessageCenterModal })));

/**
 * A modal whose code could not be loaded (offline, no answer, or still failing after the one reload of loadChunk):
 * the modal says so and offers Reload, and the shell stays, instead of the shell's error page replacing everything.
 * A class because React offers error boundaries only as class components.
 */
class ModalLoadBoundary extends Component<{ onClose: () => void; children: ReactNode }, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    if (this.state.error == null) return this.props.children;
    const { title, detail } = routeErrorText(this.state.error);
    return (
      <Modal title={title} onClose={this.props.onClose}>
        <p role="alert">{detail}</p>
        <div className="form-actions">
          <ReloadButton />
        </div>
      </Modal>
    );
  }
}

export function ModalHost({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<GlobalModal | null>(null);
  const closeModal = useCallback(() => setOpen(null), []);
  const controls = useMemo<ModalControls>(() => ({ openModal: setOpen, closeModal }), [closeModal]);
  const location = useLocation();

  // A navigation (e.g. after a modal login) closes whatever was open.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- reacts to the router (an outside change), once per navigation
  useEffect(() => setOpen(null), [location.pathname]);

  return (
    <ModalContext.Provider value={controls}>
      {children}
      <ModalLoadBoundary key={open} onClose={closeModal}>
        <Suspense fallback={null}>
          {open === 'login' && <LoginModal onClose={closeModal} />}
          {open === 'signup' && <SignupModal onClose={closeModal} />}
          {open === 'createCustomer' && <CreateCustomerModal onClose={closeModal} />}
          {open === 'createMacro' && <CreateMacroModal onClose={closeModal} />}
          {open === 'messageCenter' && <MessageCenterModal onClose={closeModal} />}
        </Suspense>
      </ModalLoadBoundary>
    </ModalContext.Provider>
  );
}
