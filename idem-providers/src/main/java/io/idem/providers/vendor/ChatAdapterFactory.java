package io.idem.providers.vendor;

import io.idem.core.chat.ChatAdapter;

/** Creates a vendor's chat adapter from what the node hands every chat provider. */
@FunctionalInterface
public interface ChatAdapterFactory {
    ChatAdapter create(ChatWiring wiring);
}
