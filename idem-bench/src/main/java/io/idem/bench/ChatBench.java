package io.idem.bench;

import io.idem.postgres.TestDatabases;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Chat calls through Idem against the same local upstream called directly, in one run (issue 7):
 * throughput at saturation (one target, and a 503 → fallback chain), added latency at a fixed
 * 500 req/s, and streaming time to first byte. The upstream is the in-process fake vendor's chat
 * endpoint; only 127.0.0.1 is used.
 *
 * <p>Run: {@code idem-bench/run chat [seconds]}.
 */
public final class ChatBench {
    static final String BODY = """
            {"model": "%s", "messages": [{"role": "user", "content": "Say hello in five words."}]%s}""";

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        // The 503 scenario fails the primary on purpose: keep its breaker shut so every call is measured.
        try (BenchNode node = BenchNode.start(
                TestDatabases.freshUrl(),
                java.util.Map.of("IDEM_ROLE", "api", "IDEM_BREAKER_FAILURE_THRESHOLD", "1000000"))) {
            String idem = node.server().baseUrl() + "/v1/chat/completions";
            String direct = node.server().fakes().get("primary").baseUrl() + "/v1/chat/completions";
            String key = BenchNode.ADMIN_KEY;
            new ChatBench().run(direct, idem, key, Duration.ofSeconds(seconds));
        }
        System.exit(0);
    }

    private void run(String direct, String idem, String key, Duration limit) throws Exception {
        String one = BODY.formatted("fake-chat-a", "");
        String vendorBody = BODY.formatted("fake-chat-a", "");
        String fallback = BODY.formatted(
                "fake-chat-a",
                ", \"fallback_models\": [\"fake-chat-b\"], \"simulate\": {\"fake-chat-a\": \"http_503\"}");
        // warm both paths
        saturate(direct, null, vendorBody, 8, Duration.ofSeconds(3));
        saturate(idem, key, one, 8, Duration.ofSeconds(5));
        saturate(idem, key, fallback, 8, Duration.ofSeconds(3));

        System.out.printf("%n## Chat: saturation, 16 clients, %d s each%n%n", limit.toSeconds());
        System.out.println("| path | req/s | p50 ms | p99 ms | errors |");
        System.out.println("|---|---|---|---|---|");
        Load directLoad = saturate(direct, null, vendorBody, 16, limit);
        Load idemLoad = saturate(idem, key, one, 16, limit);
        Load fallbackLoad = saturate(idem, key, fallback, 16, limit);
        print("direct to the upstream", directLoad);
        print("through Idem, one model", idemLoad);
        print("through Idem, 503 -> fallback", fallbackLoad);
        System.out.printf(
                "%nratios in this run: Idem/direct %.2f, fallback/direct %.2f%n",
                idemLoad.perSecond() / directLoad.perSecond(), fallbackLoad.perSecond() / directLoad.perSecond());

        System.out.printf("%n## Chat: added latency at 500 req/s (open loop, %d s each)%n%n", limit.toSeconds());
        System.out.println("| path | p50 ms | p99 ms | errors |");
        System.out.println("|---|---|---|---|");
        Load directPaced = paced(direct, null, vendorBody, 500, limit);
        Load idemPaced = paced(idem, key, one, 500, limit);
        printPaced("direct", directPaced);
        printPaced("through Idem", idemPaced);
        System.out.printf(
                "%nadded by Idem: p50 %+.2f ms, p99 %+.2f ms%n",
                ms(idemPaced.latency.getValueAtPercentile(50)) - ms(directPaced.latency.getValueAtPercentile(50)),
                ms(idemPaced.latency.getValueAtPercentile(99)) - ms(directPaced.latency.getValueAtPercentile(99)));

        String stream = BODY.formatted("fake-chat-a", ", \"stream\": true");
        Histogram ttfbDirect = firstBytes(direct, null, stream, 300);
        Histogram ttfbIdem = firstBytes(idem, key, stream, 300);
        System.out.printf("%n## Chat: streaming time to first byte, 300 sequential calls%n%n");
        System.out.println("| path | p50 ms | p99 ms |");
        System.out.println("|---|---|---|");
        System.out.printf(
                "| direct | %.2f | %.2f |%n",
                ms(ttfbDirect.getValueAtPercentile(50)), ms(ttfbDirect.getValueAtPercentile(99)));
        System.out.printf(
                "| through Idem | %.2f | %.2f |%n",
                ms(ttfbIdem.getValueAtPercentile(50)), ms(ttfbIdem.getValueAtPercentile(99)));
    }

    record Load(long ok, long errors, Histogram latency, Duration elapsed) {
        double perSecond() {
            return ok / (elapsed.toNanos() / 1e9);
        }
    }

    private HttpRequest request(String url, String key, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return b.build();
    }

    private boolean once(String url, String key, String body) {
        try {
            return http.send(request(url, key, body), HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    Load saturate(String url, String key, String body, int clients, Duration limit) throws InterruptedException {
        Histogram latency = new ConcurrentHistogram(Duration.ofSeconds(60).toNanos(), 3);
        AtomicLong ok = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long deadline = System.nanoTime() + limit.toNanos();
        long started = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                while (System.nanoTime() < deadline) {
                    long t = System.nanoTime();
                    if (once(url, key, body)) {
                        latency.recordValue(System.nanoTime() - t);
                        ok.incrementAndGet();
                    } else {
                        errors.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return new Load(ok.get(), errors.get(), latency, Duration.ofNanos(System.nanoTime() - started));
    }

    /** Sends at a fixed rate regardless of answers (open loop), each on its own virtual thread. */
    private Load paced(String url, String key, String body, int perSecond, Duration limit) throws InterruptedException {
        Histogram latency = new ConcurrentHistogram(Duration.ofSeconds(60).toNanos(), 3);
        AtomicLong ok = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long interval = 1_000_000_000L / perSecond;
        long total = perSecond * limit.toSeconds();
        long started = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (long i = 0; i < total; i++) {
                long due = started + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                pool.execute(() -> {
                    if (once(url, key, body)) {
                        latency.recordValue(Math.max(0, System.nanoTime() - due));
                        ok.incrementAndGet();
                    } else {
                        errors.incrementAndGet();
                    }
                });
            }
        }
        return new Load(ok.get(), errors.get(), latency, Duration.ofNanos(System.nanoTime() - started));
    }

    private Histogram firstBytes(String url, String key, String body, int calls) throws Exception {
        Histogram ttfb = new Histogram(Duration.ofSeconds(60).toNanos(), 3);
        for (int i = 0; i < calls; i++) {
            long t = System.nanoTime();
            HttpResponse<InputStream> response =
                    http.send(request(url, key, body), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                if (in.read() >= 0) {
                    ttfb.recordValue(System.nanoTime() - t);
                }
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
        }
        return ttfb;
    }

    static void print(String name, Load load) {
        System.out.printf(
                "| %s | %.0f | %.2f | %.2f | %d |%n",
                name,
                load.perSecond(),
                ms(load.latency.getValueAtPercentile(50)),
                ms(load.latency.getValueAtPercentile(99)),
                load.errors());
    }

    private static void printPaced(String name, Load load) {
        System.out.printf(
                "| %s | %.2f | %.2f | %d |%n",
                name,
                ms(load.latency.getValueAtPercentile(50)),
                ms(load.latency.getValueAtPercentile(99)),
                load.errors());
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    ChatBench() {}
}
