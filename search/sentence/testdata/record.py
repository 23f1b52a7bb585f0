"""Records reference.json, the fixture search/sentence's tests compare with:
each text's token ids from Hugging Face's tokenizers (the reference
implementation of the tokenizer.json the model ships with) and its vector
from ONNX Runtime's Python API, pooled as sentence-transformers pools
all-MiniLM-L6-v2 (mean over the attention mask, then L2 norm).

Run once, in a throwaway virtual environment:
    python3 -m venv /tmp/rec && /tmp/rec/bin/pip install onnxruntime==1.24.4 tokenizers numpy
    /tmp/rec/bin/python search/sentence/testdata/record.py ~/.cache/agora/sentencemodel-1.19.0-beta29
"""
import json
import os
import sys

import numpy as np
import onnxruntime
from tokenizers import Tokenizer

MAX_LEN = 256  # sentence.MaxLen

TEXTS = [
    "How do I reset my password?",
    "I forgot my login credentials, how can I get back into my account?",
    "The office hours are on Tuesdays at 3 pm with Grace Liu.",
    "Café, naïve façade: Zürich's crème brûlée costs €12.50!",
    "ÉCOLE Normale Supérieure — Ångström, Øresund, ﬁancé",
    "Embeddings, tokenization & WordPiece: don't split #hashtags or e-mail@example.com.",
    "日本語のテキストと中文字符 mixed with English",
    "tabs\tand\nnew lines\r\nand\u00a0no-break spaces\u200b here",
    "",
    "   ",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "x" * 120,
    "🙂 emoji 👍🏽 and symbols ©®™ $5 + 3^2 = `code`",
    "Kubernetes pods crash-loop after the upgrade to v1.29; kubectl logs shows OOMKilled.",
    " ".join(["The quick brown fox jumps over the lazy dog."] * 40),
]


def main():
    model_dir = sys.argv[1]
    tok = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(MAX_LEN)
    sess = onnxruntime.InferenceSession(os.path.join(model_dir, "model.onnx"))
    out = []
    for text in TEXTS:
        enc = tok.encode(text)
        ids = np.array([enc.ids], dtype=np.int64)
        mask = np.array([enc.attention_mask], dtype=np.int64)
        hidden = sess.run(["last_hidden_state"], {
            "input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        m = mask[..., None].astype(np.float32)
        vec = (hidden * m).sum(axis=1) / m.sum(axis=1)
        vec = vec / np.linalg.norm(vec, axis=1, keepdims=True)
        out.append({"text": text, "ids": enc.ids, "vector": [round(float(x), 6) for x in vec[0]]})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.json")
    with open(path, "w") as f:
        json.dump({"maxLen": MAX_LEN, "onnxruntime": onnxruntime.__version__, "texts": out}, f, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
