package io.idem.server.chat;

import io.idem.core.chat.ChatAttempt;
import io.idem.core.chat.ChatAuditSink;
import io.idem.core.chat.FailoverEvent;
import io.idem.postgres.PgChatAudit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for the chat audit (DESIGN §2): calls hand their attempts and failover events to a
 * queue and go on; one writer thread commits whatever has gathered, up to {@link #MAX_BATCH} rows,
 * in one transaction, waiting at most {@link #LINGER} for more. Under load a batch fills while the
 * previous one commits, so commits stay few; at rest a record waits a couple of milliseconds.
 *
 * <p>Nothing accepted is dropped: a full queue blocks the caller (back-pressure), a failed commit is
 * retried with backoff, and {@link #close()} drains the queue before it returns. Records in the
 * queue die only with the process. Thread-safe.
 */
public final class ChatAuditWriter implements ChatAuditSink, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChatAuditWriter.class);
    static final int MAX_BATCH = 1000;
    static final Duration LINGER = Duration.ofMillis(2);
    static final int CAPACITY = 50_000;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final PgChatAudit store;
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final Thread writer;
    private volatile boolean closing;

    public ChatAuditWriter(PgChatAudit store) {
        this.store = store;
        this.writer = Thread.ofPlatform().daemon().name("idem-chat-audit").start(this::run);
    }

    @Override
    public void attempt(ChatAttempt attempt) {
        enqueue(attempt);
    }

    @Override
    public void failover(FailoverEvent event) {
        enqueue(event);
    }

    private void enqueue(Object record) {
        accepted.incrementAndGet();
        if (!writer.isAlive()) {
            // Closed already (a stream that outlived the HTTP server): write it directly.
            write(List.of(record));
            return;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    queue.put(record);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // the record must still land; keep the interrupt for the caller
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits until every record accepted so far is committed, or {@code max} passes; true if it is. */
    public boolean awaitWritten(Duration max) throws InterruptedException {
        long target = accepted.get();
        long until = System.nanoTime() + max.toNanos();
        while (written.get() < target) {
            if (System.nanoTime() > until) {
                return false;
            }
            Thread.sleep(2);
        }
        return true;
    }

    private void run() {
        List<Object> batch = new ArrayList<>(MAX_BATCH);
        while (!closing || !queue.isEmpty()) {
            try {
                Object first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                long until = System.nanoTime() + LINGER.toNanos();
                while (batch.size() < MAX_BATCH) {
                    queue.drainTo(batch, MAX_BATCH - batch.size());
                    long left = until - System.nanoTime();
                    if (batch.size() >= MAX_BATCH || left <= 0) {
                        break;
                    }
                    Object more = queue.poll(left, TimeUnit.NANOSECONDS);
                    if (more == null) {
                        break;
                    }
                    batch.add(more);
                }
            } catch (InterruptedException e) {
                closing = true;
            }
            if (!batch.isEmpty()) {
                write(batch);
                batch.clear();
            }
        }
    }

    /** Commits one batch, retrying with backoff until it lands (or, closing, a few more times). */
    private void write(List<Object> batch) {
        List<ChatAttempt> attempts = new ArrayList<>();
        List<FailoverEvent> events = new ArrayList<>();
        for (Object record : batch) {
            switch (record) {
                case ChatAttempt a -> attempts.add(a);
                case FailoverEvent e -> events.add(e);
                default -> throw new IllegalStateException("not an audit record: " + record.getClass());
            }
        }
        long backoff = 50;
        for (int tries = 1; ; tries++) {
            try {
                store.write(attempts, events);
                written.addAndGet(batch.size());
                return;
            } catch (RuntimeException e) {
                if (closing && tries >= 5) {
                    log.error(
                            "lost {} chat audit records at shutdown: the database did not take them", batch.size(), e);
                    written.addAndGet(batch.size());
                    return;
                }
                log.warn("chat audit commit failed (try {}); retrying in {} ms", tries, backoff, e);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    closing = true;
                }
                backoff = Math.min(backoff * 2, 5_000);
            }
        }
    }

    /** Stops taking new batches after draining everything queued; returns when it is committed. */
    @Override
    public void close() {
        closing = true;
        try {
            writer.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) {
            log.error(
                    "the chat audit writer did not finish within {}; {} records may be lost", CLOSE_WAIT, queue.size());
        }
    }
}
