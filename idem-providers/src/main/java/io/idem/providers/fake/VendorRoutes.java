package io.idem.providers.fake;

import io.idem.providers.fake.VendorBodies.ErrorBody;
import io.idem.providers.fake.VendorBodies.ErrorDetail;
import io.idem.providers.fake.VendorBodies.GenerationView;
import io.idem.providers.fake.VendorBodies.LedgerView;
import io.idem.providers.fake.VendorBodies.Status;
import java.io.IOException;
import java.util.Optional;

/** Maps a request to the fake vendor's endpoint for it. Thread-safe: all state is in the book. */
final class VendorRoutes {
    static final String GENERATIONS = "/v1/images/generations";
    /** Edits: a generation body with {@code images} (and a {@code mask}), each {@code {mime_type, b64_json}}. */
    static final String EDITS = "/v1/images/edits";

    static final String USAGE = "/v1/usage";
    static final String VIDEOS = "/v1/videos";

    private final GenerationBook book;
    private final GenerationIntake intake;
    private final GenerationIntake videos;
    private final ChatIntake chat;
    private final ChatBook chatBook;

    VendorRoutes(GenerationBook book, ChatBook chatBook, ChatIntake chat) {
        this.book = book;
        this.intake = new GenerationIntake(book);
        this.videos = new GenerationIntake(book, new VideoActs(book));
        this.chat = chat;
        this.chatBook = chatBook;
    }

    Reply handle(RequestHead head, RequestBody body)
            throws IOException, MalformedRequestException, InterruptedException {
        String path = head.path();
        String method = head.method();
        if (path.equals("/health")) {
            return only("GET", method, () -> Reply.json(200, new Status("ok")));
        }
        if (path.equals("/ledger")) {
            return only("GET", method, () -> Reply.json(200, LedgerView.of(book.ledger())));
        }
        if (path.equals(USAGE)) {
            return only("GET", method, () -> usage(head));
        }
        if (path.equals(ChatIntake.PATH)) {
            return "POST".equals(method) ? chat.accept(head, body) : methodNotAllowed("POST");
        }
        if (path.equals(GENERATIONS)) {
            return switch (method) {
                case "POST" -> intake.accept(head, body);
                case "GET" -> byReference(head);
                default -> methodNotAllowed("GET, POST");
            };
        }
        if (path.equals(EDITS)) {
            return "POST".equals(method) ? intake.accept(head, body) : methodNotAllowed("POST");
        }
        if (path.equals(VIDEOS)) {
            return switch (method) {
                case "POST" -> videos.accept(head, body);
                case "GET" -> byReference(head);
                default -> methodNotAllowed("GET, POST");
            };
        }
        if (path.startsWith(VIDEOS + "/")) {
            return video(method, path.substring(VIDEOS.length() + 1).split("/", -1));
        }
        if (path.startsWith(GENERATIONS + "/")) {
            String[] rest = path.substring(GENERATIONS.length() + 1).split("/", -1);
            if (rest.length == 1 && !rest[0].isEmpty()) {
                return only("GET", method, () -> view(book.find(rest[0])));
            }
            if (rest.length == 2 && rest[1].equals("cancel")) {
                return only("POST", method, () -> cancel(rest[0]));
            }
        }
        return Reply.json(404, ErrorBody.of("not_found", "no route " + path));
    }

    /** {@code /v1/videos/{id}}: GET it, DELETE (cancel) it; {@code …/content}; {@code …/cancel}. */
    private Reply video(String method, String[] rest) {
        if (rest.length == 1 && !rest[0].isEmpty()) {
            return switch (method) {
                case "GET" -> view(book.find(rest[0]));
                case "DELETE" -> cancel(rest[0]);
                default -> methodNotAllowed("GET, DELETE");
            };
        }
        if (rest.length == 2 && rest[1].equals("cancel")) {
            return only("POST", method, () -> cancel(rest[0]));
        }
        if (rest.length == 2 && rest[1].equals("content")) {
            return only("GET", method, () -> content(rest[0]));
        }
        return Reply.json(404, ErrorBody.of("not_found", "no such route"));
    }

    /** The clip of a video that succeeded; 404 for anything else. */
    private Reply content(String id) {
        return book.find(id)
                .filter(g -> g.request().video() && g.status() == GenerationStatus.SUCCEEDED)
                .map(g -> new Reply.Answer(new WireResponse(
                        200,
                        java.util.Map.of("Content-Type", Mp4Clip.MIME_TYPE),
                        Mp4Clip.of(
                                g.request().prompt(),
                                g.request().seconds(),
                                g.request().width(),
                                g.request().height()))))
                .<Reply>map(r -> r)
                .orElseGet(() -> Reply.json(404, ErrorBody.of("not_found", "no finished video " + id)));
    }

    private Reply usage(RequestHead head) {
        String date = head.query().get("date");
        try {
            java.time.LocalDate day = java.time.LocalDate.parse(date == null ? "" : date);
            return Reply.json(200, UsageView.of(day, book.ledger(), chatBook.ledger()));
        } catch (java.time.format.DateTimeParseException e) {
            return Reply.json(400, ErrorBody.invalidRequest("invalid_date", "give ?date=YYYY-MM-DD"));
        }
    }

    private Reply byReference(RequestHead head) {
        String reference = head.query().get("reference");
        if (reference == null || reference.isEmpty()) {
            return Reply.json(400, ErrorBody.invalidRequest("missing_reference", "give ?reference=..."));
        }
        return view(book.findByReference(reference));
    }

    private static Reply view(Optional<Generation> generation) {
        return generation
                .map(g -> Reply.json(200, GenerationView.of(g)))
                .orElseGet(() -> Reply.json(404, ErrorBody.of("not_found", "no such generation")));
    }

    private Reply cancel(String id) {
        return switch (book.cancel(id)) {
            case CancelResult.Canceled canceled -> Reply.json(200, new Status("canceled"));
            case CancelResult.AlreadyFinished finished ->
                Reply.json(
                        409,
                        new ErrorBody(new ErrorDetail(
                                null,
                                "already_finished",
                                "the generation already ended",
                                finished.generation().status().wire())));
            case CancelResult.NotFound notFound -> Reply.json(404, ErrorBody.of("not_found", "no such generation"));
        };
    }

    private static Reply only(String allowed, String method, java.util.function.Supplier<Reply> route) {
        return allowed.equals(method) ? route.get() : methodNotAllowed(allowed);
    }

    private static Reply methodNotAllowed(String allowed) {
        return new Reply.Answer(WireResponse.json(405, ErrorBody.of("method_not_allowed", "use " + allowed))
                .withHeader("Allow", allowed));
    }
}
