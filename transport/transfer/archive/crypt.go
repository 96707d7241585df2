package archive

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"fmt"
	"io"

	"golang.org/x/crypto/scrypt"
)

// Strapi's data-transfer encrypts with aes-128-ecb: the key is scrypt(key, salt "", N=16384,
// r=8, p=1) cut to 16 bytes (Node's scryptSync defaults), blocks are PKCS#7-padded, there is
// no IV. ECB leaks repeated blocks; it is what Strapi's archives use, so it is what they get.

// ErrBadKey says the key does not decrypt the archive (or it is not an encrypted archive).
var ErrBadKey = errors.New("the key is incorrect or the file is not an encrypted Strapi data file")

func blockFor(key string) (cipher.Block, error) {
	k, err := scrypt.Key([]byte(key), nil, 16384, 8, 1, 16)
	if err != nil {
		return nil, fmt.Errorf("derive key: %w", err)
	}
	return aes.NewCipher(k)
}

// ecbReader decrypts an aes-128-ecb stream, holding back the last block until the end so
// that its padding can be removed.
type ecbReader struct {
	src  io.Reader
	b    cipher.Block
	in   []byte // ciphertext read but not yet decrypted (less than a block, or the held-back block)
	out  []byte // plaintext ready to hand out
	eof  bool
	done bool
}

func newECBReader(r io.Reader, key string) (io.Reader, error) {
	b, err := blockFor(key)
	if err != nil {
		return nil, err
	}
	return &ecbReader{src: r, b: b}, nil
}

func (e *ecbReader) Read(p []byte) (int, error) {
	for len(e.out) == 0 {
		if e.done {
			return 0, io.EOF
		}
		if err := e.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, e.out)
	e.out = e.out[n:]
	return n, nil
}

const bs = aes.BlockSize

func (e *ecbReader) fill() error {
	buf := make([]byte, 32<<10)
	if !e.eof {
		n, err := e.src.Read(buf)
		e.in = append(e.in, buf[:n]...)
		if err == io.EOF {
			e.eof = true
		} else if err != nil {
			return err
		}
	}
	// Decrypt every whole block but the last, which may carry the padding.
	whole := len(e.in) / bs * bs
	if !e.eof {
		if whole <= bs {
			return nil
		}
		whole -= bs
	}
	if e.eof && len(e.in)%bs != 0 {
		return ErrBadKey
	}
	plain := make([]byte, whole)
	for i := 0; i < whole; i += bs {
		e.b.Decrypt(plain[i:i+bs], e.in[i:i+bs])
	}
	e.in = append(e.in[:0], e.in[whole:]...)
	if e.eof {
		if len(plain) == 0 {
			return ErrBadKey
		}
		pad := int(plain[len(plain)-1])
		if pad == 0 || pad > bs || pad > len(plain) || !bytes.Equal(plain[len(plain)-pad:], bytes.Repeat([]byte{byte(pad)}, pad)) {
			return ErrBadKey
		}
		plain = plain[:len(plain)-pad]
		e.done = true
	}
	e.out = plain
	return nil
}

// ecbWriter encrypts with aes-128-ecb and pads the last block on Close.
type ecbWriter struct {
	dst io.Writer
	b   cipher.Block
	buf []byte
}

func newECBWriter(w io.Writer, key string) (*ecbWriter, error) {
	b, err := blockFor(key)
	if err != nil {
		return nil, err
	}
	return &ecbWriter{dst: w, b: b}, nil
}

func (e *ecbWriter) Write(p []byte) (int, error) {
	e.buf = append(e.buf, p...)
	whole := len(e.buf) / bs * bs
	if whole >= 32<<10 {
		if err := e.flush(whole); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (e *ecbWriter) flush(n int) error {
	out := make([]byte, n)
	for i := 0; i < n; i += bs {
		e.b.Encrypt(out[i:i+bs], e.buf[i:i+bs])
	}
	e.buf = append(e.buf[:0], e.buf[n:]...)
	_, err := e.dst.Write(out)
	return err
}

// Close pads (PKCS#7: always at least one byte) and writes the rest. It does not close dst.
func (e *ecbWriter) Close() error {
	pad := bs - len(e.buf)%bs
	e.buf = append(e.buf, bytes.Repeat([]byte{byte(pad)}, pad)...)
	return e.flush(len(e.buf))
}
